import fs from 'node:fs';
import path from 'node:path';
import { Client } from 'pg';
import { CONFIG, type Config } from '../src/platform/config/config';
import { suiteOnPostgres } from './helpers/app-database';
import { request, startTestApp, type TestApp } from './helpers/test-app';

/**
 * Where a test app keeps its read models follows the run: files under DATA_DIR on the SQLite pass,
 * schemas in a database of its own on the PostgreSQL pass (`npm run test:postgres`), so that pass
 * really exercises PostgreSQL and not the files.
 */
describe(`a test app's read models (${suiteOnPostgres() ? 'PostgreSQL' : 'SQLite'} pass)`, () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(async () => {
    await t?.close();
  });

  it('live where the run says, and serve a write at once', async () => {
    const created = await request(`${t.url}/admin/v1/accounts`, {
      headers: { 'x-operator-token': t.operatorToken },
      body: { name: 'Where', region: 'us' },
    });
    expect(created.status).toBe(201);
    const files = fs.existsSync(path.join(t.dataDir, 'read-models', 'accounts'));
    const url = t.app.get<symbol, Config>(CONFIG).databaseUrl;
    if (!suiteOnPostgres()) {
      expect(files).toBe(true);
      expect(url).toBeNull();
      return;
    }
    expect(files).toBe(false);
    const client = new Client({ connectionString: url! });
    await client.connect();
    try {
      const { rows } = await client.query(
        "SELECT count(*)::int AS n FROM information_schema.tables WHERE table_schema LIKE 'rm_accounts_v%' AND table_name = 'account'",
      );
      expect(rows[0].n).toBe(1);
    } finally {
      await client.end();
    }
  });
});
