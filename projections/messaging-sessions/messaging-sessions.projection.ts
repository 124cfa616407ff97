import type { RecordedEvent } from '../../src/event-store/event-store.port';
import { SESSION_STREAM_PREFIX, type SessionEvent } from '../../src/messaging/session.events';
import { defineProjection, handlerFor } from '../../src/read-models/projection';
import { MessagingSessionRow } from './messaging-sessions.entities';

const on = handlerFor<SessionEvent>();
const idOf = (event: RecordedEvent) => event.streamId.slice(SESSION_STREAM_PREFIX.length);

/**
 * Messaging sessions by phase: the desk's queue (`queued`) and the sessions each live agent holds
 * (`live`). Only phase changes are written; messages, the bulk of a session's events, are not read.
 */
export const messagingSessionsProjection = defineProjection({
  name: 'messaging-sessions',
  version: 1,
  entities: [MessagingSessionRow],
  handles: {
    MessagingSessionStarted: on<'MessagingSessionStarted'>(({ data }, _em, rows) => {
      rows.upsert(MessagingSessionRow, {
        id: data.sessionId,
        accountId: data.accountId,
        agentId: data.agentId,
        connectorId: data.connectorId,
        environment: data.environment,
        status: 'open',
        conversationId: null,
        handoffId: null,
        destination: null,
        reason: null,
        queuedAt: null,
        liveAgentId: null,
        liveAgentName: null,
        startedAt: data.at,
        endedAt: null,
        endReason: null,
      });
    }),
    MessagingServiceAgentJoined: on<'MessagingServiceAgentJoined'>((event, _em, rows) => {
      rows.update(MessagingSessionRow, { id: idOf(event) }, { status: 'agent', conversationId: event.data.conversationId, handoffId: null, destination: null, reason: null, queuedAt: null, liveAgentId: null, liveAgentName: null });
    }),
    MessagingHandoffTriggered: on<'MessagingHandoffTriggered'>((event, _em, rows) => {
      const { handoffId, destination, reason, at } = event.data;
      rows.update(MessagingSessionRow, { id: idOf(event) }, { status: 'queued', handoffId, destination, reason, queuedAt: at });
    }),
    MessagingHandoffFailed: on<'MessagingHandoffFailed'>((event, _em, rows) => {
      rows.update(MessagingSessionRow, { id: idOf(event) }, { status: 'open' });
    }),
    MessagingHandoffTimedOut: on<'MessagingHandoffTimedOut'>((event, _em, rows) => {
      rows.update(MessagingSessionRow, { id: idOf(event) }, { status: 'open' });
    }),
    MessagingHandoffAccepted: on<'MessagingHandoffAccepted'>((event, _em, rows) => {
      rows.update(MessagingSessionRow, { id: idOf(event) }, { status: 'live', liveAgentId: event.data.liveAgentId, liveAgentName: event.data.agentName });
    }),
    MessagingLiveAgentLeft: on<'MessagingLiveAgentLeft'>((event, _em, rows) => {
      rows.update(MessagingSessionRow, { id: idOf(event) }, { status: 'open' });
    }),
    MessagingSessionEnded: on<'MessagingSessionEnded'>((event, _em, rows) => {
      rows.update(MessagingSessionRow, { id: idOf(event) }, { status: 'ended', endedAt: event.data.at, endReason: event.data.reason });
    }),
  },
});
