import fs from 'node:fs';
import path from 'node:path';
import { Client } from 'pg';
import {
  findPostgresBinaries,
  postgresBinariesOrSkip,
  startPostgresServer,
  type PostgresServer,
} from './postgres-server';

const binaries = postgresBinariesOrSkip('the PostgreSQL test server harness');

describe('postgresBinariesOrSkip', () => {
  const ci = process.env.CI;
  afterEach(() => {
    if (ci === undefined) delete process.env.CI;
    else process.env.CI = ci;
    jest.restoreAllMocks();
  });

  it('skips loudly without the binaries, and fails under CI=true', () => {
    const warn = jest.spyOn(console, 'warn').mockImplementation(() => undefined);
    delete process.env.CI;
    expect(postgresBinariesOrSkip('a suite', () => null)).toBeNull();
    expect(warn.mock.calls[0][0]).toMatch(/SKIPPED on PostgreSQL: a suite[\s\S]*initdb, pg_ctl and postgres/);
    process.env.CI = 'true';
    expect(() => postgresBinariesOrSkip('a suite', () => null)).toThrow(/PostgreSQL binaries are missing, and CI=true/);
  });
});

(binaries ? describe : describe.skip)('the PostgreSQL test server', () => {
  let server: PostgresServer;
  beforeAll(async () => {
    server = await startPostgresServer(binaries);
  });
  afterAll(async () => {
    await server?.stop();
  });

  it('finds the binaries without PATH too (Debian layout or pg_config)', () => {
    expect(findPostgresBinaries({ PATH: '' })?.bindir).toBeTruthy();
  });

  it('serves the created database on loopback, with its socket in its own dir and a password', async () => {
    expect(server.url).toMatch(/^postgres:\/\/parley:[0-9a-f]+@127\.0\.0\.1:\d+\/parley_test$/);
    const client = new Client({ connectionString: server.url });
    await client.connect();
    try {
      const { rows } = await client.query(
        "SELECT current_database() AS db, current_setting('listen_addresses') AS listen, current_setting('unix_socket_directories') AS socket, current_setting('server_version_num')::int AS version",
      );
      expect(rows[0]).toMatchObject({ db: 'parley_test', listen: '127.0.0.1', socket: server.dir });
      expect(rows[0].version).toBeGreaterThanOrEqual(150000);
    } finally {
      await client.end();
    }
    const wrong = new Client({ connectionString: server.url.replace(/:[0-9a-f]+@/, ':wrong@') });
    await expect(wrong.connect()).rejects.toThrow(/password authentication failed/);
  });

  it('creates more empty databases on the same server', async () => {
    const url = await server.createDatabase('second_db');
    const client = new Client({ connectionString: url });
    await client.connect();
    try {
      expect(
        (await client.query('SELECT count(*)::int AS n FROM pg_tables WHERE schemaname = $1', ['public'])).rows[0].n,
      ).toBe(0);
    } finally {
      await client.end();
    }
    await expect(server.createDatabase('bad; DROP')).rejects.toThrow(/not a plain database name/);
  });

  it('stops, and leaves neither the server nor its dir', async () => {
    const other = await startPostgresServer(binaries, 'scratch');
    expect(fs.existsSync(path.join(other.dir, 'data', 'PG_VERSION'))).toBe(true);
    await other.stop();
    expect(fs.existsSync(other.dir)).toBe(false);
    const client = new Client({ connectionString: other.url, connectionTimeoutMillis: 2000 });
    await expect(client.connect()).rejects.toThrow(/ECONNREFUSED/);
  });
});
