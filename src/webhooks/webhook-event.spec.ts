import type { RecordedEvent } from '../event-store/event-store.port';
import { positionOf } from '../event-store/position';
import { toWebhookEvent, webhookEventId, type ConversationStartedData } from './webhook-event';

const AT = '2026-03-01T10:00:00.000Z';
const recorded = (type: string, data: unknown, id = '0194c2a0-0000-7000-8000-000000000001'): RecordedEvent => ({
  id,
  streamId: 's',
  revision: 0n,
  position: positionOf(1n),
  type,
  data,
  metadata: { schemaVersion: 1, actor: 'test', correlationId: 'c', causationId: null, occurredAt: AT },
});

const origin: ConversationStartedData = {
  conversationId: 'AS_CHAT_1',
  accountId: 'acme',
  agentId: 'bot',
  deploymentId: 'd1',
  version: 1,
  environment: 'sandbox',
  channel: 'CHAT',
  fromNumber: '',
  toNumber: '',
  variantId: '',
  variantName: '',
  language: 'en',
  startedAt: AT,
};

const alert = (from: string, to: string) =>
  recorded('AlertRuleStateChanged', {
    ruleId: 'ar_abc',
    accountId: 'acme',
    projectId: null,
    name: 'Slow',
    metric: 'turn_latency_p95',
    from,
    to,
    since: AT,
    currentValue: 900,
    evaluatedAt: AT,
  });

describe('webhook events from the log', () => {
  it('ids are stable per source event and differ between events', () => {
    expect(webhookEventId('a')).toBe(webhookEventId('a'));
    expect(webhookEventId('a')).not.toBe(webhookEventId('b'));
    expect(webhookEventId('a')).toMatch(/^evt_[0-9a-f]{32}$/);
  });

  it('conversation started, ended and handoff carry the conversation, its account and project', () => {
    const started = toWebhookEvent(recorded('ConversationStarted', origin), origin);
    expect(started).toEqual({
      accountId: 'acme',
      event: {
        id: webhookEventId('0194c2a0-0000-7000-8000-000000000001'),
        type: 'conversation.started',
        created_at: AT,
        data: {
          conversation_id: 'AS_CHAT_1',
          account_id: 'ws-acme',
          project_id: 'PROJECT-bot',
          environment: 'sandbox',
          channel: 'CHAT',
          started_at: AT,
        },
      },
    });
    expect(
      toWebhookEvent(recorded('ConversationEnded', { reason: 'agent', endedAt: AT }), origin)?.event,
    ).toMatchObject({
      type: 'conversation.ended',
      data: { conversation_id: 'AS_CHAT_1', reason: 'agent', ended_at: AT },
    });
    expect(
      toWebhookEvent(
        recorded('HandoffRequested', {
          destination: 'billing',
          reason: 'dispute',
          sharedId: 'T-1',
          data: { tier: 'gold' },
        }),
        origin,
      )?.event,
    ).toMatchObject({
      type: 'handoff.created',
      data: {
        account_id: 'ws-acme',
        destination: 'billing',
        reason: 'dispute',
        shared_id: 'T-1',
        data: { tier: 'gold' },
      },
    });
  });

  it('post-call analysis becomes conversation.analysed, with the conversation it is of', () => {
    const analysis = {
      outcome: 'handoff',
      topics: ['Billing'],
      summary: 'The user asked: "my bill". Outcome: handoff.',
      fields: { resolved: false },
      analyser: 'embedded',
    };
    expect(toWebhookEvent(recorded('ConversationAnalysed', analysis), origin)?.event).toEqual({
      id: webhookEventId('0194c2a0-0000-7000-8000-000000000001'),
      type: 'conversation.analysed',
      created_at: AT,
      data: {
        conversation_id: 'AS_CHAT_1',
        account_id: 'ws-acme',
        project_id: 'PROJECT-bot',
        environment: 'sandbox',
        channel: 'CHAT',
        ...analysis,
      },
    });
  });

  it('a conversation event without its start is nothing', () => {
    expect(toWebhookEvent(recorded('ConversationEnded', { reason: 'agent', endedAt: AT }), null)).toBeNull();
    expect(toWebhookEvent(recorded('TurnRecorded', {}), origin)).toBeNull();
  });

  it('alerts trigger on entering alert and resolve on alert to ok; other transitions are nothing', () => {
    expect(toWebhookEvent(alert('ok', 'alert'), null)).toMatchObject({
      accountId: 'acme',
      event: {
        type: 'alerts.triggered',
        data: { alert_rule_id: 'ar_abc', previous_state: 'ok', state: 'alert', current_value: 900, project_id: null },
      },
    });
    expect(toWebhookEvent(alert('no_data', 'alert'), null)?.event.type).toBe('alerts.triggered');
    expect(toWebhookEvent(alert('alert', 'ok'), null)?.event.type).toBe('alerts.resolved');
    expect(toWebhookEvent(alert('alert', 'no_data'), null)).toBeNull();
    expect(toWebhookEvent(alert('ok', 'no_data'), null)).toBeNull();
    expect(toWebhookEvent(alert('unknown', 'ok'), null)).toBeNull();
  });
});
