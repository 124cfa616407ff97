import { Client } from 'pg';
import type { DataSource } from 'typeorm';
import { newTestEvent } from '../../src/event-store/event-store.contract';
import { openAppDatabase } from '../../src/app.database';
import { PostgresGenerationStorage } from '../../src/read-models/generations/generation-storage';
import { LeaseSession } from '../../src/subscriptions/lease-session';
import type { ProcessManager } from '../../src/process-managers/process-manager';
import { ProcessManagers } from '../../src/process-managers/process-managers';
import { ReadModelRegistry } from '../../src/read-models/generations/read-model-registry';
import { ReadModels } from '../../src/read-models/read-models.service';
import {
  INCREMENTED,
  actualCounters,
  appendCounterEvents,
  counterProjection,
  expectedFromLog,
  waitUntil,
} from '../fixtures/counter-projection';
import { ReadSide, silentLogger } from '../fixtures/read-side-harness';
import { describeOnPostgres } from '../support/postgres-server';
import { patient } from '../support/patience';

const NAME = 'counters';

/**
 * Two "processes" (each its own store connection, platform connection and runners) sharing read
 * models on PostgreSQL: one applies, the other follows; read-your-writes works on both; when the
 * leader goes, the other takes over within seconds; and whatever happens to the lease, no event
 * is applied twice (the `line` table's primary key would refuse it) nor skipped.
 */
describeOnPostgres('the projection lease', (server) => {
  let side: ReadSide;
  let url: string;
  let databases = 0;
  /** Each "process" has its lease session, as an app has one. */
  const sessions: LeaseSession[] = [];
  const leases = () => {
    const session = new LeaseSession(url);
    sessions.push(session);
    return (name: string) => session.lease(name);
  };

  beforeEach(async () => {
    side = new ReadSide();
    // each test's registry is new: so are its generation schemas
    url = await server().createDatabase(`lease_${++databases}`);
  });
  afterEach(async () => {
    for (const session of sessions.splice(0)) await session.close();
    await side.cleanup();
  });

  /** `files`: the read models in SQLite files both processes share (one DATA_DIR), the leases still in PostgreSQL. */
  async function startProcess(files = false): Promise<ReadModels> {
    const registry = new ReadModelRegistry(
      await side.openPlatform(),
      files ? side.dir : new PostgresGenerationStorage(url),
    );
    const readModels = new ReadModels(
      [counterProjection()],
      await side.openStore(),
      registry,
      silentLogger,
      patient(8000),
      leases(),
    );
    await readModels.start();
    return readModels;
  }

  const role = async (readModels: ReadModels) => (await readModels.status())[0].role;

  async function expectExact(readModels: ReadModels) {
    const store = await side.openStore();
    const expected = await expectedFromLog(store);
    const actual = await actualCounters(readModels.source(NAME));
    expect(actual.lines).toBe(expected.lines);
    expect(actual.counters).toEqual(expected.counters);
  }

  it.each([
    ['schemas in PostgreSQL', false],
    ['SQLite files the processes share', true],
  ])(
    'read models in %s: one applies, the other follows and serves its writes; a stopped leader is replaced within seconds',
    async (_where, files) => {
      const store = await side.openStore();
      await appendCounterEvents(store, { events: 600, streams: 5 });
      const a = await startProcess(files);
      const b = await startProcess(files);
      try {
        expect(await role(a)).toBe('leader');
        expect(await role(b)).toBe('follower');
        // read-your-writes on the follower: it waits for the leader's commit
        const one = await store.append('via-b', [newTestEvent(INCREMENTED, { by: 2 })]);
        await b.waitFor(one.position, [NAME]);
        await expectExact(b);

        await a.stop();
        const t0 = Date.now();
        await waitUntil(async () => (await role(b)) === 'leader', 'the follower takes the lease', 6000, 20);
        expect(Date.now() - t0).toBeLessThan(6000);
        const two = await store.append('after-a', [newTestEvent(INCREMENTED, { by: 5 })]);
        await b.waitFor(two.position, [NAME]);
        await expectExact(b);
      } finally {
        await b.stop();
        await a.stop();
      }
    },
    180_000,
  );

  it('a leader whose lease connection dies stops applying; exactly one applies after, and nothing is applied twice', async () => {
    const store = await side.openStore();
    const a = await startProcess();
    const b = await startProcess();
    try {
      const appending = (async () => {
        for (let i = 0; i < 60; i++) {
          await store.append(`s-${i % 4}`, [newTestEvent(INCREMENTED, { by: 1, i })]);
          await new Promise((r) => setTimeout(r, 10));
        }
      })();
      await new Promise((r) => setTimeout(r, 150));
      // the leader's lease session ends, as when its connection is cut
      const admin = new Client({ connectionString: url });
      await admin.connect();
      // the session holding the advisory lock (class 72604231, two-key form), not the follower's waiting one
      const { rowCount } = await admin.query(
        "SELECT pg_terminate_backend(pid) FROM pg_locks WHERE locktype = 'advisory' AND classid = 72604231 AND objsubid = 2 AND granted",
      );
      await admin.end();
      expect(rowCount).toBe(1);
      await appending;
      await waitUntil(
        async () => [await role(a), await role(b)].filter((r) => r === 'leader').length === 1,
        'exactly one leader again',
        8000,
        20,
      );
      const head = await store.headPosition();
      await a.waitFor(head, [NAME]);
      await b.waitFor(head, [NAME]);
      await expectExact(a);
    } finally {
      await b.stop();
      await a.stop();
    }
  }, 180_000);

  it('a process manager runs in one process at a time, and the next takes over from its checkpoint', async () => {
    const store = await side.openStore();
    const handled: Array<{ by: string; id: string }> = [];
    const managerFor = (by: string): ProcessManager => ({
      name: 'lease-probe',
      handles: {
        [INCREMENTED]: async (event) => {
          handled.push({ by, id: event.id });
        },
      },
    });
    const platforms: DataSource[] = [];
    const start = async (by: string) => {
      const platform = await openAppDatabase(side.dir, url);
      platforms.push(platform);
      const managers = new ProcessManagers(await side.openStore(), platform, silentLogger, leases());
      managers.register(managerFor(by));
      await managers.start();
      return managers;
    };
    const a = await start('a');
    const b = await start('b');
    try {
      expect([a.status()[0].active, b.status()[0].active]).toEqual([true, false]);
      for (let i = 0; i < 20; i++) await store.append(`pm-${i % 3}`, [newTestEvent(INCREMENTED, { by: 1, i })]);
      await waitUntil(() => handled.length >= 20, 'a handles the first 20', 5000, 10);
      await a.stop();
      for (let i = 0; i < 10; i++) await store.append(`pm-${i % 3}`, [newTestEvent(INCREMENTED, { by: 1, i })]);
      await waitUntil(() => handled.length >= 30, 'b takes over and handles the next 10', 8000, 20);
      await new Promise((r) => setTimeout(r, 200));
      // each event once (the checkpoint was stored after a's batches), first by a, then by b
      expect(new Set(handled.map((h) => h.id)).size).toBe(handled.length);
      expect(handled.slice(0, 20).every((h) => h.by === 'a')).toBe(true);
      expect(handled.slice(20).every((h) => h.by === 'b')).toBe(true);
      expect(b.status()[0].active).toBe(true);
    } finally {
      await b.stop();
      await a.stop();
      for (const platform of platforms) await platform.destroy();
    }
  }, 180_000);
  it('a process that does not run a manager waits on the checkpoint the other stores (read-your-writes across processes)', async () => {
    const store = await side.openStore();
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    let started = false;
    const manager: ProcessManager = {
      name: 'followed-probe',
      handles: {
        [INCREMENTED]: async () => {
          started = true;
          await gate;
        },
      },
    };
    const platforms: DataSource[] = [];
    const start = async () => {
      const platform = await openAppDatabase(side.dir, url);
      platforms.push(platform);
      const managers = new ProcessManagers(await side.openStore(), platform, silentLogger, leases());
      managers.register(manager);
      await managers.start();
      return managers;
    };
    const a = await start();
    const b = await start();
    try {
      expect([a.status()[0].active, b.status()[0].active]).toEqual([true, false]);
      const handled = await store.append('followed-1', [newTestEvent(INCREMENTED, { by: 1 })]);
      let seenByB: boolean | null = null;
      const waiting = b.caughtUpWith(handled.position, patient(20_000)).then((ok) => (seenByB = ok));
      await waitUntil(() => started, 'a runs the handler', 5000, 5);
      // a is still reacting: b must not say it has
      await new Promise((resolve) => setTimeout(resolve, 100));
      expect(seenByB).toBeNull();
      release();
      await waiting;
      expect(seenByB).toBe(true);

      // an event the manager has no handler for moves its stored checkpoint a moment later
      const other = await store.append('followed-2', [newTestEvent('SomethingElse', { i: 1 })]);
      expect(await b.caughtUpWith(other.position, patient(20_000))).toBe(true);
    } finally {
      release();
      await b.stop();
      await a.stop();
      for (const platform of platforms) await platform.destroy();
    }
  }, 180_000);
});
