import { Client } from 'pg';
import { LeaseSession } from '../../src/subscriptions/lease-session';
import { startTestApp } from '../helpers/test-app';
import { waitUntil } from '../fixtures/counter-projection';
import { describeOnPostgres } from '../support/postgres-server';

/**
 * Issue 53: a process's leases (every projection and process manager it may run) share one
 * PostgreSQL connection, where each held a connection and a heartbeat of its own (about 30 a
 * process, 90 for three processes against PostgreSQL's default of 100).
 */
describeOnPostgres('one lease session per process', (server) => {
  let url: string;
  let databases = 0;
  const sessions: LeaseSession[] = [];
  const session = () => {
    const s = new LeaseSession(url);
    sessions.push(s);
    return s;
  };

  beforeEach(async () => {
    url = await server().createDatabase(`leases_${++databases}`);
  });
  afterEach(async () => {
    for (const s of sessions.splice(0)) await s.close();
  });

  async function query<T>(sql: string, params: unknown[] = []): Promise<T[]> {
    const admin = new Client({ connectionString: url });
    await admin.connect();
    try {
      return (await admin.query(sql, params)).rows as T[];
    } finally {
      await admin.end();
    }
  }

  /** Connections to this test's database by application name. */
  async function connections(): Promise<Record<string, number>> {
    const database = new URL(url).pathname.slice(1);
    const rows = await query<{ name: string; n: number }>(
      `SELECT application_name AS name, count(*)::int AS n FROM pg_stat_activity
        WHERE datname = $1 AND pid <> pg_backend_pid() AND application_name <> '' GROUP BY 1`,
      [database],
    );
    return Object.fromEntries(rows.map((r) => [r.name, r.n]));
  }

  it('thirty leases of one process on one connection; another process gets none of them until released', async () => {
    const a = session();
    const b = session();
    const names = Array.from({ length: 30 }, (_, i) => `projection:p${i}`);
    const mine = names.map((name) => a.lease(name));
    expect(await Promise.all(mine.map((l) => l.tryAcquire()))).toEqual(names.map(() => true));
    const theirs = names.map((name) => b.lease(name));
    expect(await Promise.all(theirs.map((l) => l.tryAcquire()))).toEqual(names.map(() => false));
    expect(await connections()).toEqual({ 'parley:leases': 2 });

    await mine[7].release();
    expect(await theirs[7].tryAcquire()).toBe(true);
    expect(await mine[7].tryAcquire()).toBe(false);
    expect(await theirs[8].tryAcquire()).toBe(false);
  });

  it('within one process, a name is held by one lease at a time', async () => {
    const a = session();
    const first = a.lease('process-manager:x');
    const second = a.lease('process-manager:x');
    const [one, two] = await Promise.all([first.tryAcquire(), second.tryAcquire()]);
    expect([one, two].sort()).toEqual([false, true]);
    const holder = one ? first : second;
    const other = one ? second : first;
    await holder.release();
    expect(await other.tryAcquire()).toBe(true);
    expect(await holder.tryAcquire()).toBe(false);
  });

  it('a lost connection loses every lease it held at once; the next try connects again', async () => {
    const a = session();
    const b = session();
    const leases = ['one', 'two', 'three'].map((name) => a.lease(name));
    const lost: string[] = [];
    leases.forEach((lease, i) => lease.onLost(() => lost.push(String(i))));
    for (const lease of leases) expect(await lease.tryAcquire()).toBe(true);
    await query("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = 'parley:leases'");
    await waitUntil(() => lost.length === 3, 'every holder hears its lease is lost', 10_000, 20);
    expect(lost.sort()).toEqual(['0', '1', '2']);
    // b, whose session was cut too, takes one; a connects again and takes the others
    expect(await b.lease('one').tryAcquire()).toBe(true);
    expect(await leases[0].tryAcquire()).toBe(false);
    expect(await leases[1].tryAcquire()).toBe(true);
  });

  it('an app on PostgreSQL holds one connection for all its leases, whatever it runs', async () => {
    const app = await startTestApp({ READ_MODEL_DB: 'postgres', DATABASE_URL: url });
    try {
      const held = await query<{ n: number }>(
        "SELECT count(*)::int AS n FROM pg_locks WHERE locktype = 'advisory' AND classid = 72604231 AND granted",
      );
      // it leads every projection and manager: many leases
      expect(held[0].n).toBeGreaterThan(10);
      const byName = await connections();
      expect(byName['parley:leases']).toBe(1);
      expect(Object.keys(byName).filter((name) => name.startsWith('parley:lease:'))).toEqual([]);
    } finally {
      await app.close();
    }
    await waitUntil(
      async () => (await connections())['parley:leases'] === undefined,
      'the session ends with the app',
      10_000,
      50,
    );
  });
});
