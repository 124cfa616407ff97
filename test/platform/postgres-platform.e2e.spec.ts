import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { DataSource } from 'typeorm';
import { EVENT_STORE, type EventStore } from '../../src/event-store/event-store.port';
import { dialectOf } from '../../src/platform/database/dialect';
import { PLATFORM_DB } from '../../src/platform/database/platform-database';
import { createAccount, operatorKey, withKey } from '../helpers/keys-fixtures';
import { request, startTestApp, type TestApp } from '../helpers/test-app';
import { postgresBinariesOrSkip, startPostgresServer, type PostgresServer } from '../support/postgres-server';
import { expectSigned, Receiver } from '../webhooks/receiver';
import type { Json } from '../helpers/json';

const binaries = postgresBinariesOrSkip('the app with its platform database on PostgreSQL');

/**
 * READ_MODEL_DB=postgres with the read models still in SQLite files: the platform records
 * (idempotency, registry, checkpoints, timers, the webhook outbox) live in PostgreSQL, and the
 * app works as with the embedded file.
 */
(binaries ? describe : describe.skip)('the app on a PostgreSQL platform database', () => {
  let server: PostgresServer;
  let t: TestApp;
  let platform: DataSource;
  let receiver: Receiver;

  beforeAll(async () => {
    server = await startPostgresServer(binaries);
    receiver = await Receiver.start();
    t = await startTestApp({ READ_MODEL_DB: 'postgres', DATABASE_URL: server.url, WEBHOOK_ALLOW_HTTP: '1' });
    platform = t.app.get(PLATFORM_DB);
  }, 180_000);

  afterAll(async () => {
    await t?.close();
    await receiver?.close();
    await server?.stop();
  });

  it('keeps its platform records in PostgreSQL, none in DATA_DIR', async () => {
    expect(dialectOf(platform)).toBe('postgres');
    expect(fs.existsSync(path.join(t.dataDir, 'platform.sqlite'))).toBe(false);
    const ready = await request(`${t.url}/readyz`);
    expect(ready.status).toBe(200);
    const active = await platform.query("SELECT count(*)::int AS n FROM read_model_generation WHERE status = 'active'");
    expect(active[0].n).toBeGreaterThan(0);
  });

  it('replays a creating POST for a repeat of its Idempotency-Key', async () => {
    const headers = { 'x-operator-token': t.operatorToken, 'idempotency-key': `acct-${randomUUID()}` };
    const first = await request(`${t.url}/admin/v1/accounts`, { headers, body: { name: 'Once', region: 'us' } });
    expect(first.status).toBe(201);
    const again = await request(`${t.url}/admin/v1/accounts`, { headers, body: { name: 'Once', region: 'us' } });
    expect(again.status).toBe(201);
    expect(again.body).toEqual(first.body);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    const other = await request(`${t.url}/admin/v1/accounts`, { headers, body: { name: 'Twice', region: 'us' } });
    expect(other.status).toBe(409);
  });

  it('queues, sends and records a webhook delivery through the outbox in PostgreSQL', async () => {
    const accountId = await createAccount(t, 'Hooks Co');
    const { key } = await operatorKey(t, accountId, { permissions: ['alerts'] });
    const created = await request(`${t.url}/v1/webhook-endpoints`, {
      headers: withKey(key),
      body: { url: receiver.url, event_types: ['alerts.triggered'] },
    });
    expect(created.status).toBe(201);
    const at = new Date().toISOString();
    const ruleId = `ar_${randomUUID().replace(/-/g, '').slice(0, 12)}`;
    const store: EventStore = t.app.get(EVENT_STORE);
    await store.append(`alert-rule-${ruleId}`, [
      {
        id: randomUUID(),
        type: 'AlertRuleStateChanged',
        data: {
          ruleId,
          accountId: accountId.replace(/^ws-/, ''),
          projectId: null,
          name: 'Slow',
          metric: 'turn_latency_p95',
          from: 'ok',
          to: 'alert',
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
    const [delivery] = await receiver.waitFor(1, 10_000);
    expectSigned(delivery, created.body.signing_secret);
    expect(delivery.body).toMatchObject({ type: 'alerts.triggered', data: { alert_rule_id: ruleId, state: 'alert' } });
    let listed: Json[] = [];
    for (let i = 0; i < 100 && listed.length === 0; i++) {
      listed = (await request(`${t.url}/v1/webhook-endpoints/${created.body.id}/deliveries`, { headers: withKey(key) }))
        .body.data;
      if (listed.length === 0) await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(listed).toMatchObject([
      { attempt: 1, status_code: 200, outcome: 'delivered', delivery_status: 'delivered' },
    ]);
    const rows = await platform.query('SELECT status, attempts FROM webhook_delivery WHERE endpoint_id = $1', [
      created.body.id,
    ]);
    expect(rows).toEqual([{ status: 'delivered', attempts: 1 }]);
    const checkpoints = await platform.query(
      "SELECT count(*)::int AS n FROM process_checkpoint WHERE name = 'webhook-events'",
    );
    expect(checkpoints[0].n).toBe(1);
  });
});
