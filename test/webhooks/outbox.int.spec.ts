import { openWebhookOutbox } from '../../src/webhooks/open-outbox';
import { deliveryId, type WebhookOutbox } from '../../src/webhooks/outbox';
import type { WebhookEvent } from '../../src/webhooks/webhook-event';
import { describeEachPlatformDatabase } from '../support/platform-databases';

const T0 = Date.parse('2026-05-01T12:00:00.000Z');
const iso = (ms: number) => new Date(ms).toISOString();

const event = (at = T0): WebhookEvent => ({ id: 'evt_1', type: 'alerts.triggered', created_at: iso(at), data: {} });

/** The outbox on a real platform database: the SQLite file, and PostgreSQL. */
describeEachPlatformDatabase('webhook outbox', (databases) => {
  let outbox: WebhookOutbox;
  let open: () => Promise<WebhookOutbox>;

  beforeEach(async () => {
    const database = await databases.fresh();
    open = async () => openWebhookOutbox(await database.open());
    outbox = await open();
  });

  it('queues one delivery per endpoint it is given, once per (source event, endpoint)', async () => {
    expect(await outbox.enqueue('acme', event(), 'source-1', [], iso(T0))).toBe(0);
    expect(await outbox.enqueue('acme', event(), 'source-1', ['whe_a', 'whe_g'], iso(T0))).toBe(2);
    // a replay of the same source event queues nothing
    expect(await outbox.enqueue('acme', event(), 'source-1', ['whe_a', 'whe_g'], iso(T0 + 5000))).toBe(0);
    const claimed = await outbox.claimDue(T0, 10, 60_000, new Set());
    expect(claimed.map((d) => d.endpointId).sort()).toEqual(['whe_a', 'whe_g']);
    expect(claimed.map((d) => d.id).sort()).toEqual(
      [deliveryId('source-1', 'whe_a'), deliveryId('source-1', 'whe_g')].sort(),
    );
    expect(claimed[0]).toMatchObject({ attempts: 0, eventId: 'evt_1', payload: JSON.stringify(event()) });
  });

  it('a claimed delivery is leased: not claimed again until the lease runs out', async () => {
    await outbox.enqueue('acme', event(), 'source-1', ['whe_a'], iso(T0));
    expect(await outbox.claimDue(T0 - 1, 10, 60_000, new Set())).toEqual([]);
    const [first] = await outbox.claimDue(T0, 10, 60_000, new Set());
    expect(first).toBeDefined();
    expect(await outbox.claimDue(T0 + 59_999, 10, 60_000, new Set())).toEqual([]);
    expect(await outbox.nextDueAt()).toBe(iso(T0 + 60_000));
    // the lease ran out (its worker died): another claims it, unless it is still in flight here
    expect(await outbox.claimDue(T0 + 60_000, 10, 60_000, new Set([first.id]))).toEqual([]);
    expect((await outbox.claimDue(T0 + 60_000, 10, 60_000, new Set())).map((d) => d.id)).toEqual([first.id]);
  });

  it('settles only the attempt the delivery waits for; a delivered one is never claimed again', async () => {
    await outbox.enqueue('acme', event(), 'source-1', ['whe_a'], iso(T0));
    const [claimed] = await outbox.claimDue(T0, 10, 60_000, new Set());
    const failed = {
      attempt: 1,
      statusCode: 500,
      error: null,
      durationMs: 3,
      attemptedAt: iso(T0),
      outcome: 'retrying' as const,
      nextAttemptAt: iso(T0 + 60_000),
    };
    expect(await outbox.recordAttempt(claimed, failed)).toBe(true);
    // the same attempt settled twice (two workers after a lease ran out) counts once
    expect(await outbox.recordAttempt(claimed, failed)).toBe(false);
    expect(await outbox.claimDue(T0 + 59_999, 10, 60_000, new Set())).toEqual([]);
    const [again] = await outbox.claimDue(T0 + 60_000, 10, 60_000, new Set());
    expect(again.attempts).toBe(1);
    expect(
      await outbox.recordAttempt(again, {
        ...failed,
        attempt: 2,
        statusCode: 200,
        outcome: 'delivered',
        nextAttemptAt: null,
      }),
    ).toBe(true);
    expect(await outbox.claimDue(T0 + 10 * 86400_000, 10, 60_000, new Set())).toEqual([]);
    expect(await outbox.nextDueAt()).toBeNull();
    expect(
      (await outbox.attempts('whe_a', 10)).map((a) => [a.attempt, a.status_code, a.outcome, a.delivery_status]),
    ).toEqual([
      [2, 200, 'delivered', 'delivered'],
      [1, 500, 'retrying', 'delivered'],
    ]);
  });

  it('cancelling the pending deliveries of an endpoint leaves finished ones and other endpoints alone; prune forgets old finished ones', async () => {
    await outbox.enqueue('acme', event(), 'source-1', ['whe_a', 'whe_b'], iso(T0));
    await outbox.enqueue('acme', event(), 'source-2', ['whe_a'], iso(T0));
    const delivered = (await outbox.claimDue(T0, 10, 60_000, new Set())).find((d) => d.endpointId === 'whe_a')!;
    await outbox.recordAttempt(delivered, {
      attempt: 1,
      statusCode: 200,
      error: null,
      durationMs: 3,
      attemptedAt: iso(T0),
      outcome: 'delivered',
      nextAttemptAt: null,
    });
    expect(await outbox.cancelPending('whe_a', iso(T0 + 1000))).toBe(1);
    expect(await outbox.cancelPending('whe_a', iso(T0 + 1000))).toBe(0);
    expect((await outbox.claimDue(T0 + 120_000, 10, 60_000, new Set())).map((d) => d.endpointId)).toEqual(['whe_b']);
    expect(await outbox.prune(iso(T0 + 1000))).toBe(1);
    expect(await outbox.prune(iso(T0 + 1001))).toBe(1);
  });

  it('two workers claiming at once never take the same delivery, and each claim is in due order', async () => {
    const other = await open();
    const endpoints = Array.from({ length: 60 }, (_, i) => `whe_${String(i).padStart(2, '0')}`);
    for (let i = 0; i < endpoints.length; i++)
      await outbox.enqueue('acme', event(), `source-${i}`, [endpoints[i]], iso(T0 + i));
    const claims = await Promise.all(
      [0, 1, 2, 3].map((round) => (round % 2 === 0 ? outbox : other).claimDue(T0 + 1000, 20, 60_000, new Set())),
    );
    const ids = claims.flat().map((d) => d.id);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids).toHaveLength(60);
    for (const claim of claims) {
      const due = claim.map((d) => Number(d.endpointId.slice(4)));
      expect(due).toEqual([...due].sort((a, b) => a - b));
    }
    expect(await other.claimDue(T0 + 1000, 20, 60_000, new Set())).toEqual([]);
  });
});
