import type { EventStore, RecordedEvent } from '../event-store/event-store.port';
import type { Clock } from '../platform/clock/clock';
import type { ProcessManager } from '../read-models/process-manager';
import type { WebhookOutbox } from './outbox';
import { SOURCE_EVENT_TYPES, toWebhookEvent, type ConversationStartedData } from './webhook-event';

export const WEBHOOK_EVENTS_PROCESS = 'webhook-events';

/**
 * Turns log events into webhook deliveries in the outbox. Idempotent per event: the deliveries
 * are keyed by (source event, endpoint), so the events a crash makes it see again queue nothing
 * twice. A conversation's later events carry no account: its first event (ConversationStarted)
 * says whose it is.
 */
export function webhookEventsProcessManager(store: EventStore, outbox: WebhookOutbox, clock: Clock, onQueued: () => void): ProcessManager {
  const originOf = async (event: RecordedEvent): Promise<ConversationStartedData | null> => {
    if (event.type === 'ConversationStarted') return event.data as ConversationStartedData;
    const [first] = await store.readStream(event.streamId, { maxCount: 1 });
    return first?.type === 'ConversationStarted' ? (first.data as ConversationStartedData) : null;
  };

  const handle = async (event: RecordedEvent): Promise<void> => {
    // Most installations have few endpoints: skip the stream read when no one could listen.
    if (!outbox.anyEnabledEndpoint()) return;
    const origin = event.type === 'AlertRuleStateChanged' ? null : await originOf(event);
    const webhook = toWebhookEvent(event, origin);
    if (webhook === null) return;
    if (outbox.enqueue(webhook.accountId, webhook.event, event.id, clock.nowIso()) > 0) onQueued();
  };

  return { name: WEBHOOK_EVENTS_PROCESS, handles: Object.fromEntries(SOURCE_EVENT_TYPES.map((type) => [type, handle])) };
}
