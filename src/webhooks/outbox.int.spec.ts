import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { DataSource } from 'typeorm';
import { openPlatformDatabase } from '../platform/database/platform-database';
import { deliveryId, WebhookOutbox } from './outbox';
import type { WebhookEvent } from './webhook-event';

const T0 = Date.parse('2026-05-01T12:00:00.000Z');
const iso = (ms: number) => new Date(ms).toISOString();

const event = (at = T0): WebhookEvent => ({ id: 'evt_1', type: 'alerts.triggered', created_at: iso(at), data: {} });

/** The outbox on a real platform database file. */
describe('webhook outbox', () => {
  let dir: string;
  let platform: DataSource;
  let outbox: WebhookOutbox;

  beforeEach(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'parley-outbox-'));
    platform = await openPlatformDatabase(dir);
    outbox = new WebhookOutbox(platform);
  });

  afterEach(async () => {
    await platform.destroy();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('queues one delivery per endpoint it is given, once per (source event, endpoint)', () => {
    expect(outbox.enqueue('acme', event(), 'source-1', [], iso(T0))).toBe(0);
    expect(outbox.enqueue('acme', event(), 'source-1', ['whe_a', 'whe_g'], iso(T0))).toBe(2);
    // a replay of the same source event queues nothing
    expect(outbox.enqueue('acme', event(), 'source-1', ['whe_a', 'whe_g'], iso(T0 + 5000))).toBe(0);
    const claimed = outbox.claimDue(T0, 10, 60_000, new Set());
    expect(claimed.map((d) => d.endpointId).sort()).toEqual(['whe_a', 'whe_g']);
    expect(claimed.map((d) => d.id).sort()).toEqual([deliveryId('source-1', 'whe_a'), deliveryId('source-1', 'whe_g')].sort());
    expect(claimed[0]).toMatchObject({ attempts: 0, eventId: 'evt_1', payload: JSON.stringify(event()) });
  });

  it('a claimed delivery is leased: not claimed again until the lease runs out', () => {
    outbox.enqueue('acme', event(), 'source-1', ['whe_a'], iso(T0));
    expect(outbox.claimDue(T0 - 1, 10, 60_000, new Set())).toEqual([]);
    const [first] = outbox.claimDue(T0, 10, 60_000, new Set());
    expect(first).toBeDefined();
    expect(outbox.claimDue(T0 + 59_999, 10, 60_000, new Set())).toEqual([]);
    expect(outbox.nextDueAt()).toBe(iso(T0 + 60_000));
    // the lease ran out (its worker died): another claims it, unless it is still in flight here
    expect(outbox.claimDue(T0 + 60_000, 10, 60_000, new Set([first.id]))).toEqual([]);
    expect(outbox.claimDue(T0 + 60_000, 10, 60_000, new Set()).map((d) => d.id)).toEqual([first.id]);
  });

  it('settles only the attempt the delivery waits for; a delivered one is never claimed again', () => {
    outbox.enqueue('acme', event(), 'source-1', ['whe_a'], iso(T0));
    const [claimed] = outbox.claimDue(T0, 10, 60_000, new Set());
    const failed = { attempt: 1, statusCode: 500, error: null, durationMs: 3, attemptedAt: iso(T0), outcome: 'retrying' as const, nextAttemptAt: iso(T0 + 60_000) };
    expect(outbox.recordAttempt(claimed, failed)).toBe(true);
    // the same attempt settled twice (two workers after a lease ran out) counts once
    expect(outbox.recordAttempt(claimed, failed)).toBe(false);
    expect(outbox.claimDue(T0 + 59_999, 10, 60_000, new Set())).toEqual([]);
    const [again] = outbox.claimDue(T0 + 60_000, 10, 60_000, new Set());
    expect(again.attempts).toBe(1);
    expect(outbox.recordAttempt(again, { ...failed, attempt: 2, statusCode: 200, outcome: 'delivered', nextAttemptAt: null })).toBe(true);
    expect(outbox.claimDue(T0 + 10 * 86400_000, 10, 60_000, new Set())).toEqual([]);
    expect(outbox.nextDueAt()).toBeNull();
    expect(outbox.attempts('whe_a', 10).map((a) => [a.attempt, a.status_code, a.outcome, a.delivery_status])).toEqual([
      [2, 200, 'delivered', 'delivered'],
      [1, 500, 'retrying', 'delivered'],
    ]);
  });

  it('cancelling the pending deliveries of an endpoint leaves finished ones and other endpoints alone; prune forgets old finished ones', () => {
    outbox.enqueue('acme', event(), 'source-1', ['whe_a', 'whe_b'], iso(T0));
    outbox.enqueue('acme', event(), 'source-2', ['whe_a'], iso(T0));
    const delivered = outbox.claimDue(T0, 10, 60_000, new Set()).find((d) => d.endpointId === 'whe_a')!;
    outbox.recordAttempt(delivered, { attempt: 1, statusCode: 200, error: null, durationMs: 3, attemptedAt: iso(T0), outcome: 'delivered', nextAttemptAt: null });
    expect(outbox.cancelPending('whe_a', iso(T0 + 1000))).toBe(1);
    expect(outbox.cancelPending('whe_a', iso(T0 + 1000))).toBe(0);
    expect(outbox.claimDue(T0 + 120_000, 10, 60_000, new Set()).map((d) => d.endpointId)).toEqual(['whe_b']);
    expect(outbox.prune(iso(T0 + 1000))).toBe(1);
    expect(outbox.prune(iso(T0 + 1001))).toBe(1);
  });
});
