import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { Client } from 'pg';
import { CONFIG, type Config } from '../src/platform/config/config';
import { request, startTestApp, type TestApp } from './helpers/test-app';

/**
 * A key value or a connector token is shown once, in the answer to the command that made it. When
 * the read model lags past the read-your-writes bound (here: its file is write-locked by another
 * connection, as a long checkpoint or a busy disk would), the answer must still carry the secret
 * (a 503 would lose it for a change that was made), and the credential works once the read model
 * shows it.
 */
describe('secrets shown once survive a lagging read model', () => {
  let t: TestApp;
  const op = () => ({ 'x-operator-token': t.operatorToken });

  beforeAll(async () => {
    t = await startTestApp({ READ_YOUR_WRITES_TIMEOUT_MS: '300' });
  });
  afterAll(() => t.close());

  /**
   * Holds the read model's write lock until the returned function is called: its file's on SQLite;
   * on PostgreSQL a lock on its generation's checkpoint table, which every batch writes.
   */
  async function lockReadModel(name: string): Promise<() => Promise<void>> {
    const url = t.app.get<symbol, Config>(CONFIG).databaseUrl;
    if (url === null) {
      const dir = path.join(t.dataDir, 'read-models', name);
      const file = fs.readdirSync(dir).find((f) => f.endsWith('.sqlite'))!;
      const db = new Database(path.join(dir, file));
      db.exec('BEGIN IMMEDIATE');
      return async () => {
        db.exec('COMMIT');
        db.close();
      };
    }
    const client = new Client({ connectionString: url });
    await client.connect();
    const { rows } = await client.query(
      'SELECT schema_name FROM information_schema.schemata WHERE schema_name LIKE $1',
      [`rm_${name.replace(/-/g, '_')}_v%`],
    );
    expect(rows).toHaveLength(1);
    await client.query('BEGIN');
    await client.query(`LOCK TABLE ${rows[0].schema_name}.projection_checkpoint IN EXCLUSIVE MODE`);
    return async () => {
      await client.query('COMMIT');
      await client.end();
    };
  }

  async function eventually<T>(probe: () => Promise<T | undefined>): Promise<T> {
    for (let i = 0; i < 200; i++) {
      const value = await probe();
      if (value !== undefined) return value;
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    throw new Error('never became visible');
  }

  async function account(name: string): Promise<string> {
    await request(`${t.url}/admin/v1/accounts`, { body: { name, region: 'us' }, headers: op() });
    return eventually(async () => {
      const list = await request(`${t.url}/admin/v1/accounts`, { headers: op() });
      return list.body.accounts?.find((a: { name: string }) => a.name === name)?.accountId as string | undefined;
    });
  }

  it('answers a created key with its value, and the key works moments later', async () => {
    const accountId = await account('Lagging keys');
    const unlock = await lockReadModel('api-keys');
    const created = await request(`${t.url}/admin/v1/accounts/${accountId}/api-keys`, {
      body: {
        name: 'first',
        agents: 'all',
        permissions: ['agents', 'keys'],
        expiresAt: new Date(Date.now() + 86_400_000).toISOString(),
      },
      headers: op(),
    });
    await unlock();
    expect(created.status).toBe(201);
    expect(created.body.key).toMatch(/^sk_[a-z0-9]{40}$/);
    expect(created.body).toMatchObject({ name: 'first', agents: 'all', permissions: ['agents', 'keys'] });
    const self = await eventually(async () => {
      const r = await request(`${t.url}/v1/api-keys/self`, { headers: { 'x-api-key': created.body.key } });
      return r.status === 200 ? r.body : undefined;
    });
    expect(self).toMatchObject({ id: created.body.id, name: 'first' });
  });

  it('answers a created messaging connector with its token', async () => {
    const accountId = await account('Lagging connectors');
    const key = await request(`${t.url}/admin/v1/accounts/${accountId}/api-keys`, {
      body: {
        name: 'builder',
        agents: 'all',
        permissions: ['agents'],
        expiresAt: new Date(Date.now() + 86_400_000).toISOString(),
      },
      headers: op(),
    });
    const headers = { 'x-api-key': key.body.key };
    await eventually(async () =>
      (await request(`${t.url}/v1/api-keys/self`, { headers })).status === 200 ? true : undefined,
    );
    await request(`${t.url}/v1/accounts/${accountId}/agents`, {
      body: { name: 'Lagging agent', responseSettings: { greeting: 'Hi' } },
      headers,
    });
    const agentId = await eventually(async () => {
      const list = await request(`${t.url}/v1/accounts/${accountId}/agents`, { headers });
      return (list.body as Array<{ agentId: string }>)[0]?.agentId;
    });
    const unlock = await lockReadModel('accounts');
    const connector = await request(`${t.url}/admin/v1/accounts/${accountId}/connectors`, {
      body: { agentId, kind: 'messaging', environment: 'live', hostDomain: 'example.com' },
      headers: op(),
    });
    await unlock();
    expect(connector.status).toBe(201);
    expect(connector.body).toMatchObject({
      accountId,
      agentId,
      kind: 'messaging',
      environment: 'live',
      hostDomain: 'example.com',
    });
    expect(connector.body.connectorToken).toEqual(expect.any(String));
    expect(connector.body.connectorId).toMatch(/^con_/);
  });

  it('answers a created webhook endpoint and a rotated secret with the secret', async () => {
    const accountId = await account('Lagging webhooks');
    const key = await request(`${t.url}/admin/v1/accounts/${accountId}/api-keys`, {
      body: {
        name: 'alerts',
        agents: 'all',
        permissions: ['alerts'],
        expiresAt: new Date(Date.now() + 86_400_000).toISOString(),
      },
      headers: op(),
    });
    const headers = { 'x-api-key': key.body.key };
    await eventually(async () =>
      (await request(`${t.url}/v1/api-keys/self`, { headers })).status === 200 ? true : undefined,
    );
    let unlock = await lockReadModel('webhook-endpoints');
    const created = await request(`${t.url}/v1/webhook-endpoints`, {
      body: {
        url: 'https://hooks.example.com/parley',
        event_types: ['alerts.triggered'],
        headers: { 'X-Team': 'ops' },
      },
      headers,
    });
    await unlock();
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      url: 'https://hooks.example.com/parley',
      enabled: true,
      event_types: ['alerts.triggered'],
      headers: { 'X-Team': '***' },
      timeout_ms: 5000,
    });
    expect(created.body.signing_secret).toMatch(/^whsec_/);
    expect(created.body.signing_secret).not.toContain('…');
    const shown = await eventually(async () => {
      const r = await request(`${t.url}/v1/webhook-endpoints/${created.body.id}`, { headers });
      return r.status === 200 ? r.body : undefined;
    });
    expect(shown).toMatchObject({
      id: created.body.id,
      created_at: created.body.created_at,
      headers: { 'X-Team': '***' },
    });

    unlock = await lockReadModel('webhook-endpoints');
    const rotated = await request(`${t.url}/v1/webhook-endpoints/${created.body.id}/rotate-secret`, {
      method: 'POST',
      headers,
    });
    await unlock();
    expect(rotated.status).toBe(200);
    expect(rotated.body.signing_secret).toMatch(/^whsec_/);
    expect(rotated.body.signing_secret).not.toBe(created.body.signing_secret);
  });
});
