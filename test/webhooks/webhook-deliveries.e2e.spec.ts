import { randomUUID } from 'node:crypto';
import type { DataSource } from 'typeorm';
import { EVENT_STORE, type EventStore } from '../../src/event-store/event-store.port';
import { PLATFORM_DB } from '../../src/platform/database/platform-database';
import { portableSql } from '../../src/platform/database/portable-sql';
import { createAccount, operatorKey, withKey } from '../helpers/keys-fixtures';
import { request, type JsonResponse } from '../helpers/test-app';
import {
  advanceClock,
  buildAgent,
  converse,
  eventually,
  platformNow,
  startConversationsFixture,
  type ConversationsFixture,
} from '../helpers/conversations-fixture';
import { expectSigned, Receiver, waitForAttempts } from './receiver';
import type { Json } from '../helpers/json';

/**
 * Webhook deliveries end to end (contract §13): real conversations through debug chat and alert
 * transitions appended to the log become signed POSTs to a real receiver on 127.0.0.1; retries
 * follow the schedule on the test clock; every attempt is listed by the deliveries route.
 */

const ISO_MS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const MIN = 60;

const TOPICS = [
  {
    name: 'Billing human',
    content: 'Connecting you to billing.',
    queries: ['talk to billing', 'billing person please'],
    actions: 'handoff destination=billing-queue reason="billing dispute" shared_id=TICKET-7781',
  },
  { name: 'Goodbye', content: 'Goodbye!', queries: ['bye now', 'goodbye'], actions: 'end_conversation' },
  { name: 'Opening hours', content: 'We open at nine.', queries: ['opening hours', 'when do you open'] },
];

describe('webhook deliveries', () => {
  let f: ConversationsFixture;
  let store: EventStore;
  let agentId: string;
  const receivers: Receiver[] = [];

  const receiver = async () => {
    const r = await Receiver.start();
    receivers.push(r);
    return r;
  };
  const endpoints = (key: string, method: string, path = '', body?: unknown): Promise<JsonResponse> =>
    request(`${f.t.url}/v1/webhook-endpoints${path}`, { method, body, headers: withKey(key) });
  const createEndpoint = async (key: string, body: Record<string, unknown>) => {
    const r = await endpoints(key, 'POST', '', body);
    expect(r.status).toBe(201);
    return r.body as { id: string; signing_secret: string };
  };
  const deliveries = async (key: string, endpointId: string) => {
    const r = await endpoints(key, 'GET', `/${endpointId}/deliveries`);
    expect(r.status).toBe(200);
    return r.body.data as Json[];
  };
  /** An account of its own with an alerts key: its endpoints see only its events. */
  const account = async (name: string) => {
    const accountId = await createAccount(f.t, name);
    return {
      accountId,
      bare: accountId.replace(/^ws-/, ''),
      key: (await operatorKey(f.t, accountId, { permissions: ['alerts'] })).key as string,
    };
  };
  /** What the alerts evaluator appends on a transition (alert-rule.events.ts). */
  const appendAlert = async (
    accountBare: string,
    from: string,
    to: string,
    ruleId = `ar_${randomUUID().replace(/-/g, '').slice(0, 12)}`,
  ) => {
    const at = new Date(await platformNow(f.t)).toISOString();
    const id = randomUUID();
    await store.append(`alert-rule-${ruleId}`, [
      {
        id,
        type: 'AlertRuleStateChanged',
        data: {
          ruleId,
          accountId: accountBare,
          projectId: null,
          name: 'Slow answers',
          metric: 'turn_latency_p95',
          from,
          to,
          since: at,
          currentValue: 1234,
          evaluatedAt: at,
        },
        metadata: {
          schemaVersion: 1,
          actor: 'system:alert-evaluator',
          correlationId: randomUUID(),
          causationId: null,
          occurredAt: at,
        },
      },
    ]);
    return { ruleId, at, id };
  };
  const nowS = async () => Math.floor((await platformNow(f.t)) / 1000);
  /** parley_webhook_deliveries_total by outcome, as GET /metrics shows it now. */
  const deliveriesCounted = async () => {
    const response = await fetch(`${f.t.url}/metrics`, { headers: { 'x-operator-token': f.t.operatorToken } });
    expect(response.status).toBe(200);
    const text = await response.text();
    const count = (outcome: string) =>
      Number(
        new RegExp(`^parley_webhook_deliveries_total\\{outcome="${outcome}"\\} (\\d+)$`, 'm').exec(text)?.[1] ?? 0,
      );
    return {
      delivered: count('delivered'),
      retrying: count('retrying'),
      failed: count('failed'),
      cancelled: count('cancelled'),
    };
  };

  beforeAll(async () => {
    f = await startConversationsFixture('Webhooks Co', { WEBHOOK_ALLOW_HTTP: '1' });
    store = f.t.app.get(EVENT_STORE);
    agentId = await buildAgent(f, 'Hook bot', 'Hi, how can I help?', TOPICS);
  }, 180_000);

  afterAll(async () => {
    await Promise.all(receivers.map((r) => r.close()));
    await f?.close();
  });

  it('conversation started, handoff and ended reach subscribed endpoints, signed with their secrets', async () => {
    const all = await receiver();
    const narrow = await receiver();
    const off = await receiver();
    const foreignReceiver = await receiver();
    const everything = ['conversation.started', 'conversation.ended', 'handoff.created'];
    const main = await createEndpoint(f.adminKey, {
      name: 'all',
      url: all.url,
      event_types: everything,
      headers: { 'X-Receiver-Token': 'tok-123' },
    });
    const handoffs = await createEndpoint(f.adminKey, { url: narrow.url, event_types: ['handoff.created'] });
    await createEndpoint(f.adminKey, { url: off.url, event_types: everything, enabled: false });
    const foreign = await account('Foreign Co');
    await createEndpoint(foreign.key, { url: foreignReceiver.url, event_types: everything });

    const timestamp = await nowS();
    const billing = await converse(f, agentId, ['I want to talk to billing']);
    expect(billing.replies[0].conversationEnded).toBe(true);
    const bye = await converse(f, agentId, ['when do you open', 'bye now']);
    expect(bye.replies[1].conversationEnded).toBe(true);

    const got = await all.waitFor(5);
    for (const delivery of got) {
      expectSigned(delivery, main.signing_secret);
      expect(delivery.headers['x-webhook-timestamp']).toBe(String(timestamp));
      expect(delivery.headers['x-receiver-token']).toBe('tok-123');
      expect(delivery.path).toBe('/hook');
      expect(Object.keys(delivery.body).sort()).toEqual(['created_at', 'data', 'id', 'type']);
      expect(delivery.body.id).toMatch(/^evt_[0-9a-f]{32}$/);
      expect(delivery.body.created_at).toMatch(ISO_MS);
      expect(delivery.body.data).toMatchObject({
        account_id: f.accountId,
        project_id: agentId,
        environment: 'sandbox',
        channel: expect.any(String),
      });
    }
    const seen = (conversationId: string) =>
      got
        .filter((d) => d.body.data.conversation_id === conversationId)
        .map((d) => d.body.type)
        .sort();
    expect(seen(billing.id)).toEqual(['conversation.ended', 'conversation.started', 'handoff.created']);
    expect(seen(bye.id)).toEqual(['conversation.ended', 'conversation.started']);
    expect(new Set(got.map((d) => d.body.id)).size).toBe(5);
    const byType = (type: string, conversationId: string) =>
      got.find((d) => d.body.type === type && d.body.data.conversation_id === conversationId)!.body;
    expect(byType('handoff.created', billing.id).data).toMatchObject({
      destination: 'billing-queue',
      reason: 'billing dispute',
      shared_id: 'TICKET-7781',
    });
    expect(byType('conversation.ended', bye.id).data).toMatchObject({
      reason: expect.any(String),
      ended_at: expect.stringMatching(ISO_MS),
    });
    expect(byType('conversation.started', bye.id).data.started_at).toMatch(ISO_MS);

    // The handoff-only endpoint got the one handoff, signed with its own secret (not the other's).
    const [handoff] = await narrow.waitFor(1);
    expectSigned(handoff, handoffs.signing_secret);
    expect(handoff.body).toEqual(byType('handoff.created', billing.id));
    expect(() => expectSigned(handoff, main.signing_secret)).toThrow();

    // Disabled endpoints and other accounts' endpoints hear nothing.
    await narrow.expectNoMoreThan(1);
    expect(off.received).toHaveLength(0);
    expect(foreignReceiver.received).toHaveLength(0);
    await all.expectNoMoreThan(5, 0);

    const attempts = await deliveries(f.adminKey, main.id);
    expect(attempts).toHaveLength(5);
    expect(attempts.map((a) => a.event_id).sort()).toEqual(got.map((d) => d.body.id).sort());
    for (const a of attempts) {
      expect(a).toEqual({
        delivery_id: expect.stringMatching(/^whd_[0-9a-f]{24}$/),
        event_id: expect.stringMatching(/^evt_/),
        event_type: expect.stringMatching(/^(conversation\.started|conversation\.ended|handoff\.created)$/),
        attempt: 1,
        status_code: 200,
        error: null,
        duration_ms: expect.any(Number),
        attempted_at: new Date(timestamp * 1000 + ((await platformNow(f.t)) % 1000)).toISOString(),
        outcome: 'delivered',
        next_attempt_at: null,
        delivery_status: 'delivered',
      });
    }
  });

  it('alert transitions: ok → alert is alerts.triggered, alert → ok is alerts.resolved, others send nothing', async () => {
    const acme = await account('Alerting Co');
    const hook = await receiver();
    const convOnly = await receiver();
    const endpoint = await createEndpoint(acme.key, {
      url: hook.url,
      event_types: ['alerts.triggered', 'alerts.resolved'],
    });
    await createEndpoint(acme.key, { url: convOnly.url, event_types: ['conversation.started'] });
    const onlyResolved = await receiver();
    await createEndpoint(acme.key, { url: onlyResolved.url, event_types: ['alerts.resolved'] });

    const triggered = await appendAlert(acme.bare, 'ok', 'alert', 'ar_rule00000001');
    const [first] = await hook.waitFor(1);
    expectSigned(first, endpoint.signing_secret);
    expect(first.body).toEqual({
      id: expect.stringMatching(/^evt_[0-9a-f]{32}$/),
      type: 'alerts.triggered',
      created_at: triggered.at,
      data: {
        alert_rule_id: 'ar_rule00000001',
        account_id: acme.accountId,
        project_id: null,
        name: 'Slow answers',
        metric: 'turn_latency_p95',
        previous_state: 'ok',
        state: 'alert',
        since: triggered.at,
        current_value: 1234,
        evaluated_at: triggered.at,
      },
    });

    await appendAlert(acme.bare, 'alert', 'ok', 'ar_rule00000001');
    const [, second] = await hook.waitFor(2);
    expectSigned(second, endpoint.signing_secret);
    expect(second.body).toMatchObject({
      type: 'alerts.resolved',
      data: { alert_rule_id: 'ar_rule00000001', previous_state: 'alert', state: 'ok' },
    });
    expect(second.body.id).not.toBe(first.body.id);

    await appendAlert(acme.bare, 'ok', 'no_data');
    await appendAlert(acme.bare, 'alert', 'unknown');
    await appendAlert(acme.bare, 'no_data', 'alert');
    const third = (await hook.waitFor(3))[2];
    expectSigned(third, endpoint.signing_secret);
    expect(third.body.data).toMatchObject({ previous_state: 'no_data', state: 'alert' });
    expect(third.body.type).toBe('alerts.triggered');
    await hook.expectNoMoreThan(3);
    expect(onlyResolved.received.map((d) => d.body.type)).toEqual(['alerts.resolved']);
    expect(convOnly.received).toHaveLength(0);
    // Another account's alerts never reach this one.
    await appendAlert('someone-else', 'ok', 'alert');
    await hook.expectNoMoreThan(3);
  });

  it('retries on 500, 503, 429 and 408 at +1 m, +5 m, +15 m, +1 h on the platform clock; never again after the 2xx', async () => {
    const acme = await account('Retry Co');
    const countedBefore = await deliveriesCounted();
    const hook = (await receiver()).answer(500, 503, 429, 408, 200);
    const endpoint = await createEndpoint(acme.key, { url: hook.url, event_types: ['alerts.triggered'] });
    await appendAlert(acme.bare, 'ok', 'alert');
    const t0 = await nowS();
    await hook.waitFor(1);

    // Each retry comes exactly when due: not a second before.
    const gaps = [1 * MIN, 5 * MIN, 15 * MIN, 60 * MIN];
    for (const [i, gap] of gaps.entries()) {
      await advanceClock(f.t, gap - 1);
      await hook.expectNoMoreThan(i + 1, 300);
      await advanceClock(f.t, 1);
      await hook.waitFor(i + 2);
    }
    const got = hook.received;
    expect(got.map((d) => Number(d.headers['x-webhook-timestamp']) - t0)).toEqual([0, 60, 360, 1260, 4860]);
    for (const delivery of got) {
      expectSigned(delivery, endpoint.signing_secret);
      expect(delivery.rawBody).toBe(got[0].rawBody);
      expect(delivery.headers['x-webhook-event-id']).toBe(got[0].body.id);
    }

    // Delivered: nothing more, however long we wait.
    await advanceClock(f.t, 4 * 3600);
    await advanceClock(f.t, 24 * 3600);
    await hook.expectNoMoreThan(5);

    const attempts = await deliveries(acme.key, endpoint.id);
    expect(attempts.map((a) => [a.attempt, a.status_code, a.outcome, a.delivery_status])).toEqual([
      [5, 200, 'delivered', 'delivered'],
      [4, 408, 'retrying', 'delivered'],
      [3, 429, 'retrying', 'delivered'],
      [2, 503, 'retrying', 'delivered'],
      [1, 500, 'retrying', 'delivered'],
    ]);
    expect(new Set(attempts.map((a) => a.delivery_id)).size).toBe(1);
    expect(attempts.map((a) => (Date.parse(a.attempted_at) / 1000) | 0).map((s) => s - t0)).toEqual([
      4860, 1260, 360, 60, 0,
    ]);
    expect(
      attempts.map((a) =>
        a.next_attempt_at === null ? null : (Date.parse(a.next_attempt_at) - Date.parse(a.attempted_at)) / 1000,
      ),
    ).toEqual([null, 3600, 900, 300, 60]);
    expect(attempts.map((a) => a.error)).toEqual([null, 'http_408', 'http_429', 'http_503', 'http_500']);

    // Each settled attempt is counted by outcome on GET /metrics.
    const counted = await deliveriesCounted();
    expect({
      delivered: counted.delivered - countedBefore.delivered,
      retrying: counted.retrying - countedBefore.retrying,
      failed: counted.failed - countedBefore.failed,
      cancelled: counted.cancelled - countedBefore.cancelled,
    }).toEqual({ delivered: 1, retrying: 4, failed: 0, cancelled: 0 });
  });

  it('after the sixth failed attempt (+4 h) the delivery is failed and never sent again', async () => {
    const acme = await account('Down Co');
    const hook = await receiver();
    hook.fallback = 500;
    const endpoint = await createEndpoint(acme.key, { url: hook.url, event_types: ['alerts.resolved'] });
    await appendAlert(acme.bare, 'alert', 'ok');
    const t0 = await nowS();
    await hook.waitFor(1);
    for (const [i, gap] of [1, 5, 15, 60, 240].entries()) {
      await advanceClock(f.t, gap * MIN);
      await hook.waitFor(i + 2);
    }
    expect(hook.received.map((d) => Number(d.headers['x-webhook-timestamp']) - t0)).toEqual([
      0, 60, 360, 1260, 4860, 19260,
    ]);
    await advanceClock(f.t, 8 * 3600);
    await advanceClock(f.t, 48 * 3600);
    await hook.expectNoMoreThan(6);

    const attempts = await deliveries(acme.key, endpoint.id);
    expect(attempts.map((a) => [a.attempt, a.status_code, a.outcome, a.delivery_status])).toEqual([
      [6, 500, 'failed', 'failed'],
      [5, 500, 'retrying', 'failed'],
      [4, 500, 'retrying', 'failed'],
      [3, 500, 'retrying', 'failed'],
      [2, 500, 'retrying', 'failed'],
      [1, 500, 'retrying', 'failed'],
    ]);
    expect(attempts[0].next_attempt_at).toBeNull();
    expect((Date.parse(attempts[1].next_attempt_at) - Date.parse(attempts[1].attempted_at)) / 1000).toBe(4 * 3600);
  });

  it('a 400 is final: one attempt, failed, no retry', async () => {
    const acme = await account('Picky Co');
    const hook = (await receiver()).answer(400);
    const endpoint = await createEndpoint(acme.key, { url: hook.url, event_types: ['alerts.triggered'] });
    await appendAlert(acme.bare, 'ok', 'alert');
    await hook.waitFor(1);
    await advanceClock(f.t, MIN);
    await advanceClock(f.t, 5 * 3600);
    await hook.expectNoMoreThan(1);
    const [attempt] = await deliveries(acme.key, endpoint.id);
    expect(attempt).toMatchObject({
      attempt: 1,
      status_code: 400,
      error: 'http_400',
      outcome: 'failed',
      next_attempt_at: null,
      delivery_status: 'failed',
    });
  });

  it('a timeout and a refused connection are retried; the attempt records the error and its duration', async () => {
    const acme = await account('Flaky Co');
    const slow = (await receiver()).answer('hang', 200);
    const slowEndpoint = await createEndpoint(acme.key, {
      url: slow.url,
      event_types: ['alerts.triggered'],
      timeout_ms: 1000,
    });
    const closed = await Receiver.start();
    const deadUrl = closed.url;
    await closed.close();
    const deadEndpoint = await createEndpoint(acme.key, { url: deadUrl, event_types: ['alerts.triggered'] });

    await appendAlert(acme.bare, 'ok', 'alert');
    await slow.waitFor(1);
    const timedOut = await waitForAttempts(() => deliveries(acme.key, slowEndpoint.id), 1, 4000);
    expect(timedOut[0]).toMatchObject({
      attempt: 1,
      status_code: null,
      error: 'timeout',
      outcome: 'retrying',
      delivery_status: 'pending',
    });
    expect(timedOut[0].duration_ms).toBeGreaterThanOrEqual(950);
    const refused = await waitForAttempts(() => deliveries(acme.key, deadEndpoint.id), 1);
    expect(refused[0]).toMatchObject({
      attempt: 1,
      status_code: null,
      error: 'connect_failed',
      outcome: 'retrying',
      delivery_status: 'pending',
    });

    // The retry goes to the endpoint as it is now: a fixed URL is used at once.
    const fixed = await receiver();
    expect((await endpoints(acme.key, 'PATCH', `/${deadEndpoint.id}`, { url: fixed.url })).status).toBe(200);
    await advanceClock(f.t, MIN);
    const [retried] = await slow.waitFor(2);
    expectSigned(slow.received[1], slowEndpoint.signing_secret);
    expect(slow.received[1].rawBody).toBe(retried.rawBody);
    const [late] = await fixed.waitFor(1);
    expectSigned(late, deadEndpoint.signing_secret);
    expect((await waitForAttempts(() => deliveries(acme.key, slowEndpoint.id), 2))[0]).toMatchObject({
      attempt: 2,
      status_code: 200,
      outcome: 'delivered',
    });
  });

  it('rotate-secret: the next attempt is signed with the new secret, not the old one', async () => {
    const acme = await account('Rotating Co');
    const hook = (await receiver()).answer(500, 200);
    const endpoint = await createEndpoint(acme.key, { url: hook.url, event_types: ['alerts.triggered'] });
    await appendAlert(acme.bare, 'ok', 'alert');
    const [before] = await hook.waitFor(1);
    expectSigned(before, endpoint.signing_secret);

    const rotated = await endpoints(acme.key, 'POST', `/${endpoint.id}/rotate-secret`);
    expect(rotated.status).toBe(200);
    await advanceClock(f.t, MIN);
    const after = (await hook.waitFor(2))[1];
    expect(after.rawBody).toBe(before.rawBody);
    expectSigned(after, rotated.body.signing_secret);
    expect(() => expectSigned(after, endpoint.signing_secret)).toThrow();
    expect(after.headers['x-webhook-signature']).not.toBe(before.headers['x-webhook-signature']);
  });

  it('a deleted or disabled endpoint gets no more retries; its deliveries are cancelled', async () => {
    const acme = await account('Leaving Co');
    const gone = (await receiver()).answer(500);
    const paused = (await receiver()).answer(500);
    const goneEndpoint = await createEndpoint(acme.key, { url: gone.url, event_types: ['alerts.triggered'] });
    const pausedEndpoint = await createEndpoint(acme.key, { url: paused.url, event_types: ['alerts.triggered'] });
    await appendAlert(acme.bare, 'ok', 'alert');
    await gone.waitFor(1);
    await paused.waitFor(1);
    await waitForAttempts(() => deliveries(acme.key, pausedEndpoint.id), 1);

    expect((await endpoints(acme.key, 'DELETE', `/${goneEndpoint.id}`)).status).toBe(204);
    // The deletion event cancels what the endpoint still had to receive, before any retry falls due.
    const platform: DataSource = f.t.app.get(PLATFORM_DB);
    await eventually(async () => {
      const rows: Array<{ status: string }> = await platform.query(
        portableSql(platform, 'SELECT status FROM webhook_delivery WHERE endpoint_id = ?'),
        [goneEndpoint.id],
      );
      expect(rows.map((r) => r.status)).toEqual(['cancelled']);
    });
    expect((await endpoints(acme.key, 'PATCH', `/${pausedEndpoint.id}`, { enabled: false })).status).toBe(200);
    await advanceClock(f.t, MIN);
    await advanceClock(f.t, 6 * 3600);
    await gone.expectNoMoreThan(1);
    await paused.expectNoMoreThan(1);
    const [only] = await deliveries(acme.key, pausedEndpoint.id);
    expect(only).toMatchObject({ attempt: 1, outcome: 'retrying', delivery_status: 'cancelled' });

    // Re-enabled, it hears new events again (not the cancelled one).
    expect((await endpoints(acme.key, 'PATCH', `/${pausedEndpoint.id}`, { enabled: true })).status).toBe(200);
    await appendAlert(acme.bare, 'ok', 'alert');
    const [, fresh] = await paused.waitFor(2);
    expect(fresh.body.id).not.toBe(paused.received[0].body.id);
  });
});
