import type { EventStore, RecordedEvent } from '../event-store/event-store.port';
import type { Position } from '../event-store/position';
import type { Clock } from '../platform/clock/clock';
import type { ProcessManager } from '../process-managers/process-manager';
import type { WebhookOutbox } from './outbox';
import type { SubscribedEndpoints } from '../../projections/webhook-endpoints/queries';
import type { WebhookEndpointsEvent } from './webhook-endpoint.events';
import { SOURCE_EVENT_TYPES, toWebhookEvent, type ConversationStartedData } from './webhook-event';
import { isTestConversationStream } from '../conversations/conversation.events';

const WEBHOOK_EVENTS_PROCESS = 'webhook-events';

type DeletedData = Extract<WebhookEndpointsEvent, { type: 'WebhookEndpointDeleted' }>['data'];

export interface WebhookEventsDeps {
  store: EventStore;
  outbox: WebhookOutbox;
  endpoints: SubscribedEndpoints;
  /** Resolves once the webhook-endpoints read model has applied the log up to the position (bounded: rejects past a timeout). */
  endpointsApplied: (position: Position) => Promise<void>;
  clock: Clock;
  onQueued: () => void;
}

/**
 * Turns log events into webhook deliveries in the outbox. Who receives an event at position Q is
 * what the endpoints listened to just before Q (SubscribedEndpoints.listeningAt), so it first
 * waits for the endpoints read model to pass Q: an endpoint created at P < Q is always seen, one
 * created after Q never is, whichever subscription runs ahead. A timeout fails the batch and the
 * runner retries it from the checkpoint. Idempotent per event: deliveries are keyed by (source
 * event, endpoint), so the events a crash makes it see again queue nothing twice.
 *
 * A conversation's later events carry no account: its first event (ConversationStarted) says whose
 * it is. A deleted endpoint's pending deliveries are cancelled here, in log order, so none queued
 * for an event before the deletion outlives it (the worker also refuses deleted endpoints).
 */
export function webhookEventsProcessManager({
  store,
  outbox,
  endpoints,
  endpointsApplied,
  clock,
  onQueued,
}: WebhookEventsDeps): ProcessManager {
  const originOf = async (event: RecordedEvent): Promise<ConversationStartedData | null> => {
    if (event.type === 'ConversationStarted') return event.data as ConversationStartedData;
    const [first] = await store.readStream(event.streamId, { maxCount: 1 });
    return first?.type === 'ConversationStarted' ? (first.data as ConversationStartedData) : null;
  };

  const deliver = async (event: RecordedEvent): Promise<void> => {
    await endpointsApplied(event.position);
    // Most installations have few endpoints: skip the stream read when no one could listen.
    if (!(await endpoints.anyEverListened())) return;
    const origin = event.type === 'AlertRuleStateChanged' ? null : await originOf(event);
    const webhook = toWebhookEvent(event, origin);
    if (webhook === null) return;
    const listening = await endpoints.listeningAt(webhook.accountId, webhook.event.type, event.position);
    if ((await outbox.enqueue(webhook.accountId, webhook.event, event.id, listening, clock.nowIso())) > 0) onQueued();
  };

  const cancel = async (event: RecordedEvent<DeletedData>): Promise<void> => {
    await outbox.cancelPending(event.data.endpointId, clock.nowIso());
  };

  return {
    name: WEBHOOK_EVENTS_PROCESS,
    // a test run's conversation is nobody's business outside the run
    wants: (event: RecordedEvent) => !isTestConversationStream(event.streamId),
    handles: {
      ...Object.fromEntries(SOURCE_EVENT_TYPES.map((type) => [type, deliver])),
      WebhookEndpointDeleted: cancel,
    },
  };
}
