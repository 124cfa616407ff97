import type { RecordedEvent } from '../../src/event-store/event-store.port';
import { SESSION_STREAM_PREFIX, type SessionEvent } from '../../src/messaging/session.events';
import { defineProjection, handlerFor } from '../../src/read-models/projection';
import { MessagingSessionRow } from './messaging-sessions.entities';
import { MESSAGING_SESSIONS_READ_MODEL } from './name';

const on = handlerFor<SessionEvent>();
const idOf = (event: RecordedEvent) => event.streamId.slice(SESSION_STREAM_PREFIX.length);

/**
 * Messaging sessions by phase: the desk's queue (`queued`) and the sessions each live agent holds
 * (`live`). Only phase changes are written; messages, the bulk of a session's events, are not read.
 */
export const messagingSessionsProjection = defineProjection({
  name: MESSAGING_SESSIONS_READ_MODEL,
  // v2: indexed by conversation (delayed responses find their session)
  version: 2,
  entities: [MessagingSessionRow],
  handles: {
    MessagingSessionStarted: on<'MessagingSessionStarted'>(async ({ data }, _em, rows) => {
      await rows.upsert(MessagingSessionRow, {
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
    MessagingServiceAgentJoined: on<'MessagingServiceAgentJoined'>(async (event, _em, rows) => {
      await rows.update(
        MessagingSessionRow,
        { id: idOf(event) },
        {
          status: 'agent',
          conversationId: event.data.conversationId,
          handoffId: null,
          destination: null,
          reason: null,
          queuedAt: null,
          liveAgentId: null,
          liveAgentName: null,
        },
      );
    }),
    MessagingHandoffTriggered: on<'MessagingHandoffTriggered'>(async (event, _em, rows) => {
      const { handoffId, destination, reason, at } = event.data;
      await rows.update(
        MessagingSessionRow,
        { id: idOf(event) },
        { status: 'queued', handoffId, destination, reason, queuedAt: at },
      );
    }),
    MessagingHandoffFailed: on<'MessagingHandoffFailed'>(async (event, _em, rows) => {
      await rows.update(MessagingSessionRow, { id: idOf(event) }, { status: 'open' });
    }),
    MessagingHandoffTimedOut: on<'MessagingHandoffTimedOut'>(async (event, _em, rows) => {
      await rows.update(MessagingSessionRow, { id: idOf(event) }, { status: 'open' });
    }),
    MessagingHandoffAccepted: on<'MessagingHandoffAccepted'>(async (event, _em, rows) => {
      await rows.update(
        MessagingSessionRow,
        { id: idOf(event) },
        { status: 'live', liveAgentId: event.data.liveAgentId, liveAgentName: event.data.agentName },
      );
    }),
    MessagingLiveAgentLeft: on<'MessagingLiveAgentLeft'>(async (event, _em, rows) => {
      await rows.update(MessagingSessionRow, { id: idOf(event) }, { status: 'open' });
    }),
    MessagingSessionEnded: on<'MessagingSessionEnded'>(async (event, _em, rows) => {
      await rows.update(
        MessagingSessionRow,
        { id: idOf(event) },
        { status: 'ended', endedAt: event.data.at, endReason: event.data.reason },
      );
    }),
  },
});
