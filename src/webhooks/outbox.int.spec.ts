import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { DataSource } from 'typeorm';
import { openPlatformDatabase } from '../platform/database/platform-database';
import { WebhookEndpointStore, type EndpointRecord } from './endpoint-store';
import { deliveryId, WebhookOutbox } from './outbox';
import type { WebhookEvent } from './webhook-event';

const T0 = Date.parse('2026-05-01T12:00:00.000Z');
const iso = (ms: number) => new Date(ms).toISOString();

const endpoint = (id: string, overrides: Partial<EndpointRecord> = {}): EndpointRecord => ({
  id,
  account_id: 'acme',
  name: id,
  url: 'https://example.com/hook',
  enabled: 1,
  event_types: JSON.stringify(['alerts.triggered']),
  sealed_headers: 'sealed',
  timeout_ms: 5000,
  sealed_secret: 'sealed',
  secret_last4: 'abcd',
  created_at: iso(T0),
  updated_at: iso(T0),
  deleted_at: null,
  ...overrides,
});

const event = (at = T0): WebhookEvent => ({ id: 'evt_1', type: 'alerts.triggered', created_at: iso(at), data: {} });

/** The outbox on a real platform database file. */
describe('webhook outbox', () => {
  let dir: string;
  let platform: DataSource;
  let outbox: WebhookOutbox;
  let endpoints: WebhookEndpointStore;

  beforeEach(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'parley-outbox-'));
    platform = await openPlatformDatabase(dir);
    outbox = new WebhookOutbox(platform);
    endpoints = new WebhookEndpointStore(platform);
  });

  afterEach(async () => {
    await platform.destroy();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('queues one delivery per subscribed, enabled, live endpoint that existed at the event, once', () => {
    endpoints.insertWithinLimit(endpoint('whe_a'), 10);
    endpoints.insertWithinLimit(endpoint('whe_b', { event_types: JSON.stringify(['alerts.resolved']) }), 10);
    endpoints.insertWithinLimit(endpoint('whe_c', { enabled: 0 }), 10);
    endpoints.insertWithinLimit(endpoint('whe_d', { deleted_at: iso(T0) }), 10);
    endpoints.insertWithinLimit(endpoint('whe_e', { account_id: 'other' }), 10);
    endpoints.insertWithinLimit(endpoint('whe_f', { created_at: iso(T0 + 1) }), 10);
    endpoints.insertWithinLimit(endpoint('whe_g'), 10);

    expect(outbox.enqueue('acme', event(), 'source-1', iso(T0))).toBe(2);
    // a replay of the same source event queues nothing
    expect(outbox.enqueue('acme', event(), 'source-1', iso(T0 + 5000))).toBe(0);
    const claimed = outbox.claimDue(T0, 10, 60_000, new Set());
    expect(claimed.map((d) => d.endpointId).sort()).toEqual(['whe_a', 'whe_g']);
    expect(claimed.map((d) => d.id).sort()).toEqual([deliveryId('source-1', 'whe_a'), deliveryId('source-1', 'whe_g')].sort());
    expect(claimed[0]).toMatchObject({ attempts: 0, eventId: 'evt_1', payload: JSON.stringify(event()) });
  });

  it('a claimed delivery is leased: not claimed again until the lease runs out', () => {
    endpoints.insertWithinLimit(endpoint('whe_a'), 10);
    outbox.enqueue('acme', event(), 'source-1', iso(T0));
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
    endpoints.insertWithinLimit(endpoint('whe_a'), 10);
    outbox.enqueue('acme', event(), 'source-1', iso(T0));
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
    expect(endpoints.attempts('whe_a', 10).map((a) => [a.attempt, a.status_code, a.outcome, a.delivery_status])).toEqual([
      [2, 200, 'delivered', 'delivered'],
      [1, 500, 'retrying', 'delivered'],
    ]);
  });

  it('deleting an endpoint cancels its pending deliveries; prune forgets old finished ones', () => {
    endpoints.insertWithinLimit(endpoint('whe_a'), 10);
    outbox.enqueue('acme', event(), 'source-1', iso(T0));
    endpoints.delete('whe_a', iso(T0 + 1000));
    expect(outbox.claimDue(T0 + 1000, 10, 60_000, new Set())).toEqual([]);
    expect(outbox.prune(iso(T0 + 1000))).toBe(0);
    expect(outbox.prune(iso(T0 + 1001))).toBe(1);
  });

  it('the 10-endpoint limit counts live endpoints of the account only', () => {
    for (let i = 0; i < 10; i++) expect(endpoints.insertWithinLimit(endpoint(`whe_${i}`), 10)).toBe(true);
    expect(endpoints.insertWithinLimit(endpoint('whe_x'), 10)).toBe(false);
    expect(endpoints.insertWithinLimit(endpoint('whe_y', { account_id: 'other' }), 10)).toBe(true);
    endpoints.delete('whe_3', iso(T0));
    expect(endpoints.insertWithinLimit(endpoint('whe_x'), 10)).toBe(true);
    expect(endpoints.list('acme')).toHaveLength(10);
  });
});
