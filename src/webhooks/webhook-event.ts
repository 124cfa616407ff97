import type { AlertRuleStateEvent } from '../alerts/alert-rule.events';
import type { ConversationEvent } from '../conversations/conversation.events';
import type { RecordedEvent } from '../event-store/event-store.port';
import { derivedUuid } from '../platform/ids/derived-id';
import { accountRef, agentRef } from '../platform/ids/prefixed-ids';

import type { WebhookEventType } from './webhook-endpoint.events';

export { WEBHOOK_EVENT_TYPES, type WebhookEventType } from './webhook-endpoint.events';

/** The body of a delivery: the same bytes on every attempt. */
export interface WebhookEvent {
  id: string;
  type: WebhookEventType;
  created_at: string;
  data: Record<string, unknown>;
}

type DataOf<E, T> = E extends { type: T; data: infer D } ? D : never;
export type ConversationStartedData = DataOf<ConversationEvent, 'ConversationStarted'>;
type AlertStateData = AlertRuleStateEvent['data'];

/** The log event types that become webhook events. */
export const SOURCE_EVENT_TYPES = [
  'ConversationStarted',
  'ConversationEnded',
  'ConversationAnalysed',
  'HandoffRequested',
  'AlertRuleStateChanged',
] as const;

/** Stable per source event: a replay of the log yields the same id, so receivers can deduplicate. */
export const webhookEventId = (sourceEventId: string) =>
  `evt_${derivedUuid(`webhook-event:${sourceEventId}`).replace(/-/g, '')}`;

/**
 * The webhook event a log event becomes, with the account it belongs to; null for events no one
 * subscribes to (an alert moving between ok, no_data and unknown). Conversation events after the
 * first carry no account: `origin` is the conversation's ConversationStarted data.
 */
export function toWebhookEvent(
  event: RecordedEvent,
  origin: ConversationStartedData | null,
): { accountId: string; event: WebhookEvent } | null {
  const make = (accountId: string, type: WebhookEventType, data: Record<string, unknown>) => ({
    accountId,
    event: { id: webhookEventId(event.id), type, created_at: event.metadata.occurredAt, data },
  });
  if (event.type === 'AlertRuleStateChanged') {
    const d = event.data as AlertStateData;
    const type =
      d.to === 'alert' && d.from !== 'alert'
        ? 'alerts.triggered'
        : d.from === 'alert' && d.to === 'ok'
          ? 'alerts.resolved'
          : null;
    if (type === null) return null;
    return make(d.accountId, type, {
      alert_rule_id: d.ruleId,
      account_id: accountRef(d.accountId),
      project_id: d.projectId === null ? null : agentRef(d.projectId),
      name: d.name,
      metric: d.metric,
      previous_state: d.from,
      state: d.to,
      since: d.since,
      current_value: d.currentValue,
      evaluated_at: d.evaluatedAt,
    });
  }
  if (origin === null) return null;
  const conversation = {
    conversation_id: origin.conversationId,
    account_id: accountRef(origin.accountId),
    project_id: agentRef(origin.agentId),
    environment: origin.environment,
    channel: origin.channel,
  };
  switch (event.type) {
    case 'ConversationStarted':
      return make(origin.accountId, 'conversation.started', { ...conversation, started_at: origin.startedAt });
    case 'ConversationEnded': {
      const d = event.data as DataOf<ConversationEvent, 'ConversationEnded'>;
      return make(origin.accountId, 'conversation.ended', { ...conversation, reason: d.reason, ended_at: d.endedAt });
    }
    case 'ConversationAnalysed': {
      const d = event.data as DataOf<ConversationEvent, 'ConversationAnalysed'>;
      return make(origin.accountId, 'conversation.analysed', {
        ...conversation,
        outcome: d.outcome,
        topics: d.topics,
        summary: d.summary,
        fields: d.fields,
        analyser: d.analyser,
      });
    }
    case 'HandoffRequested': {
      const d = event.data as DataOf<ConversationEvent, 'HandoffRequested'>;
      return make(origin.accountId, 'handoff.created', {
        ...conversation,
        destination: d.destination,
        reason: d.reason,
        shared_id: d.sharedId,
        data: d.data,
      });
    }
    default:
      return null;
  }
}
