import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { DataSource } from 'typeorm';
import { newTestEvent } from '../../src/event-store/event-store.contract';
import type { RecordedEvent } from '../../src/event-store/event-store.port';
import { START } from '../../src/event-store/position';
import type { SqliteEventStore } from '../../src/event-store/sqlite/sqlite-event-store';
import { ManualClock } from '../../src/platform/clock/clock';
import { toNewEvents } from '../../src/commands/command-handler';
import { ProcessCheckpoint } from '../../src/platform/database/platform.entities';
import { ProcessManagerRunner, type ProcessManager } from '../../src/process-managers/process-manager';
import { ProcessManagers } from '../../src/process-managers/process-managers';
import { sleep, waitUntil } from '../fixtures/counter-projection';
import { patient } from '../support/patience';
import { ReadSide, silentLogger } from '../fixtures/read-side-harness';
import { describeEachPlatformDatabase, type PlatformDatabase } from '../support/platform-databases';

/** Checkpoints live in the platform database: the SQLite file, and PostgreSQL (the log is SQLite in both). */
describeEachPlatformDatabase('process managers', (databases) => {
  let side: ReadSide;
  let store: SqliteEventStore;
  let database: PlatformDatabase;
  let platform: DataSource;
  const runners: Array<{ stop(): Promise<void> }> = [];

  beforeEach(async () => {
    side = new ReadSide();
    store = await side.openStore();
    database = await databases.fresh();
    platform = await database.open();
  });

  afterEach(async () => {
    for (const runner of runners.splice(0)) await runner.stop();
    await side.cleanup();
  });

  async function startRunner(manager: ProcessManager, db: DataSource = platform): Promise<ProcessManagerRunner> {
    const runner = new ProcessManagerRunner(manager, store, db, silentLogger);
    runners.push(runner);
    await runner.start();
    return runner;
  }

  const checkpointOf = async (name: string, db: DataSource = platform) =>
    (await db.getRepository(ProcessCheckpoint).findOneBy({ name }))?.position ?? null;

  it('reacts to each event once, saves its checkpoint, and after a restart does not handle checkpointed events again', async () => {
    const handled: string[] = [];
    const manager: ProcessManager = {
      name: 'greeter',
      handles: {
        Greeted: async (event: RecordedEvent) => {
          handled.push(event.id);
        },
      },
    };
    const first = [newTestEvent('Greeted', { n: 1 }), newTestEvent('Other'), newTestEvent('Greeted', { n: 2 })];
    await store.append('g-1', first);
    const runner = await startRunner(manager);
    await waitUntil(() => handled.length === 2, 'both Greeted events handled');
    expect(handled).toEqual([first[0].id, first[2].id]);
    const head = await store.headPosition();
    await waitUntil(async () => (await checkpointOf('greeter')) === head, 'the checkpoint is saved');
    expect(runner.position).toBe(head);
    expect(runner.error).toBeNull();

    const live = newTestEvent('Greeted', { n: 3 });
    await store.append('g-2', [live]);
    await waitUntil(() => handled.length === 3, 'a live event handled');
    await runner.stop();

    // Restart: a new runner (new platform connection too) picks up after the checkpoint.
    const more = newTestEvent('Greeted', { n: 4 });
    await store.append('g-3', [more]);
    const platform2 = await database.open();
    await startRunner(manager, platform2);
    await waitUntil(() => handled.length >= 4, 'the event appended while stopped is handled');
    await sleep(50);
    expect(handled).toEqual([first[0].id, first[2].id, live.id, more.id]);
    expect(await checkpointOf('greeter', platform2)).toBe(await store.headPosition());
  });

  it('a manager with nothing to do still moves its stored checkpoint, so a restart does not read the log again', async () => {
    const manager: ProcessManager = { name: 'idle', handles: { NeverAppended: async () => undefined } };
    await store.append('idle-1', [newTestEvent('Other'), newTestEvent('Other')]);
    await startRunner(manager);
    const head = await store.headPosition();
    await waitUntil(async () => (await checkpointOf('idle')) === head, 'the checkpoint reaches the head');
  });

  it('a new manager that starts at the head passes over history, and after a restart goes on from its checkpoint', async () => {
    const handled: string[] = [];
    const manager: ProcessManager = {
      name: 'from-now-on',
      startsAtHead: true,
      handles: { Greeted: async (event: RecordedEvent) => void handled.push(event.id) },
    };
    await store.append('h-1', [newTestEvent('Greeted', { n: 1 })]);
    const head = await store.headPosition();
    const runner = await startRunner(manager);
    // stored before any batch: a restart before one starts from here, not from the head it finds then
    expect(await checkpointOf('from-now-on')).toBe(head);
    const live = newTestEvent('Greeted', { n: 2 });
    await store.append('h-2', [live]);
    await waitUntil(() => handled.length === 1, 'the event after the start handled');
    await runner.stop();
    const whileStopped = newTestEvent('Greeted', { n: 3 });
    await store.append('h-3', [whileStopped]);
    await startRunner(manager);
    await waitUntil(() => handled.length === 2, 'the event appended while stopped handled');
    expect(handled).toEqual([live.id, whileStopped.id]);
  });

  it('caughtUpWithLog waits for the managers reads wait for, not for one marked otherwise', async () => {
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const managers = new ProcessManagers(store, platform, silentLogger);
    runners.push(managers);
    let quick = 0;
    managers.register({ name: 'quick', handles: { Ping: async () => void quick++ } });
    managers.register({ name: 'slow', awaitedByReads: false, handles: { Ping: () => held } });
    await managers.start();
    await store.append('ping-slow', [newTestEvent('Ping')]);
    try {
      const began = Date.now();
      await managers.caughtUpWithLog(patient(10_000));
      expect(quick).toBe(1);
      expect(Date.now() - began).toBeLessThan(patient(5000));
    } finally {
      release();
    }
  });

  it('`wants` narrows a handled type: only the events it wants reach the handler, in both lane modes', async () => {
    for (const partitioned of [false, true]) {
      const handled: string[] = [];
      const manager: ProcessManager = {
        name: `picky-${partitioned}`,
        wants: (event: RecordedEvent) => (event.data as { n: number }).n % 2 === 0,
        ...(partitioned ? { partitionBy: (event: RecordedEvent) => event.streamId } : {}),
        handles: {
          Greeted: async (event: RecordedEvent) => {
            if (event.streamId === `picky-${partitioned}`) handled.push(event.id);
          },
        },
      };
      const events = [1, 2, 3, 4].map((n) => newTestEvent('Greeted', { n }));
      await store.append(`picky-${partitioned}`, events);
      const runner = await startRunner(manager);
      const head = await store.headPosition();
      await waitUntil(() => runner.position === head, 'the runner reaches the head');
      expect(handled).toEqual([events[1].id, events[3].id]);
    }
  });

  it('a partitioned batch starts a few handlers per turn of the event loop: a request that came meanwhile is answered between them', async () => {
    // a real loopback server, on a kept-alive connection opened before the batch
    const log: string[] = [];
    const server = http.createServer((request, response) => {
      log.push(`served ${request.url}`);
      response.end('ok');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    const get = (path: string) =>
      new Promise<void>((resolve, reject) => {
        const { port } = server.address() as AddressInfo;
        http
          .get({ host: '127.0.0.1', port, path, agent }, (response) => response.resume().on('end', resolve))
          .on('error', reject);
      });
    try {
      await get('/warm');
      log.length = 0;
      let answered: Promise<void> | null = null;
      const manager: ProcessManager = {
        name: 'few-per-turn',
        partitionBy: (event: RecordedEvent) => event.streamId,
        handles: {
          Greeted: async (event: RecordedEvent) => {
            const n = (event.data as { n: number }).n;
            log.push(`start ${n}`);
            if (n === 0) answered = get('/during');
            // each start holds the loop, as a binding's state load and decision do
            const until = performance.now() + 20;
            while (performance.now() < until);
          },
        },
      };
      for (let n = 0; n < 8; n++) await store.append(`turns-${n}`, [newTestEvent('Greeted', { n })]);
      const head = await store.headPosition();
      const runner = await startRunner(manager);
      await waitUntil(() => runner.position === head, 'the runner reaches the head');
      await answered;
      // the request went out during the first start; the loop answers it within a few starts, not after all eight
      const served = log.indexOf('served /during');
      expect(served).toBeGreaterThan(0);
      expect(log.slice(served + 1).filter((line) => line.startsWith('start')).length).toBeGreaterThanOrEqual(4);
    } finally {
      agent.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });

  it('ProcessManagers starts every registered manager and reports their status', async () => {
    const seen: Record<string, number> = { a: 0, b: 0 };
    const managers = new ProcessManagers(store, platform, silentLogger);
    runners.push(managers);
    managers.register({ name: 'pm-a', handles: { Ping: async () => void seen.a++ } });
    managers.register({ name: 'pm-b', handles: { Ping: async () => void seen.b++ } });
    expect(() => managers.register({ name: 'pm-a', handles: {} })).toThrow(/two process managers are named pm-a/);
    await store.append('ping', [newTestEvent('Ping'), newTestEvent('Ping')]);
    await managers.start();
    expect(() => managers.register({ name: 'late', handles: {} })).toThrow(/registered after start/);
    await waitUntil(() => seen.a === 2 && seen.b === 2, 'both managers handled both pings');
    const head = await store.headPosition();
    await waitUntil(() => managers.status().every((s) => s.position === head), 'positions reported');
    expect(managers.status()).toEqual([
      { name: 'pm-a', position: head, active: true, error: null },
      { name: 'pm-b', position: head, active: true, error: null },
    ]);
  });

  it('the report gives each manager its lag: a stalled one shows how far behind it is, and its error', async () => {
    let release!: () => void;
    const stalled = new Promise<void>((resolve) => (release = resolve));
    let failures = 0;
    const managers = new ProcessManagers(store, platform, silentLogger);
    runners.push(managers);
    managers.register({ name: 'pm-fine', handles: { Ping: async () => undefined } });
    managers.register({ name: 'pm-stuck', handles: { Ping: () => stalled } });
    managers.register({
      name: 'pm-failing',
      handles: {
        Ping: async () => {
          failures++;
          // a failure of the world (not of the event) keeps the manager retrying; an event's own is dead-lettered (dead-letters-process-managers.int.spec.ts)
          throw Object.assign(new Error('the carrier said no'), { code: 'ECONNREFUSED' });
        },
      },
    });
    await store.append('ping', [newTestEvent('Ping'), newTestEvent('Ping'), newTestEvent('Ping')]);
    await managers.start();
    const head = await store.headPosition();
    const statusOf = (name: string) => managers.status().find((s) => s.name === name)!;
    await waitUntil(
      () => statusOf('pm-failing').error !== null && statusOf('pm-fine').position === head,
      'one caught up, one failed',
    );
    expect(failures).toBeGreaterThan(0);
    const report = Object.fromEntries((await managers.report()).map((r) => [r.name, r]));
    expect(report['pm-fine']).toEqual({
      name: 'pm-fine',
      position: head,
      active: true,
      error: null,
      lagEvents: 0,
      deadLetters: 0,
    });
    expect(report['pm-stuck']).toMatchObject({ position: START, active: true, error: null, lagEvents: 3 });
    expect(report['pm-failing']).toMatchObject({
      position: START,
      active: true,
      error: 'the carrier said no',
      lagEvents: 3,
    });
    release();
    await waitUntil(
      async () => (await managers.report()).find((r) => r.name === 'pm-stuck')!.lagEvents === 0,
      'the stalled one caught up once released',
    );
  });

  it('a handler appending a command event with an idempotency key appends nothing new when the event is handled again', async () => {
    const clock = new ManualClock(Date.parse('2030-01-01T00:00:00Z'));
    let calls = 0;
    const manager: ProcessManager = {
      name: 'shipper',
      handles: {
        OrderPlaced: async (event: RecordedEvent<{ order: string }>) => {
          calls++;
          const events = toNewEvents(
            [{ type: 'ShipmentRequested', data: { order: event.data.order } }],
            {
              actor: 'system:shipper',
              correlationId: event.metadata.correlationId,
              causationId: event.id,
              idempotencyKey: `shipper:${event.id}`,
            },
            clock,
          );
          await store.append(`shipment-${event.data.order}`, events, 'any');
        },
      },
    };
    const orders = ['o1', 'o2', 'o3'].map((order) => newTestEvent('OrderPlaced', { order }));
    for (const order of orders) await store.append(`order-${order.data.order}`, [order]);

    const runner = await startRunner(manager);
    await waitUntil(() => calls === 3, 'three orders handled');
    await waitUntil(async () => (await checkpointOf('shipper')) !== null, 'checkpoint saved');
    const logAfterFirst = await store.readAll();
    expect(logAfterFirst.filter((e) => e.type === 'ShipmentRequested')).toHaveLength(3);
    for (const order of orders) {
      const shipment = await store.readStream(`shipment-${order.data.order}`);
      expect(shipment).toHaveLength(1);
      expect(shipment[0].metadata).toMatchObject({ causationId: order.id, actor: 'system:shipper' });
    }
    await runner.stop();

    // Crash before the checkpoint: every order runs through the handler again.
    await platform.getRepository(ProcessCheckpoint).delete({ name: 'shipper' });
    expect(await checkpointOf('shipper')).toBeNull();
    calls = 0;
    const again = await startRunner(manager);
    expect(again.position).toBe(START);
    await waitUntil(() => calls === 3, 'the orders are handled again');
    await sleep(30);
    expect(calls).toBe(3);
    const logAfterSecond = await store.readAll();
    expect(logAfterSecond.map((e) => e.id)).toEqual(logAfterFirst.map((e) => e.id));
    expect(again.error).toBeNull();

    // A partial reset (checkpoint in the middle) is just as harmless.
    await again.stop();
    await platform
      .getRepository(ProcessCheckpoint)
      .upsert({ name: 'shipper', position: logAfterFirst[1].position, updatedAt: clock.nowIso() }, ['name']);
    calls = 0;
    await startRunner(manager);
    await waitUntil(() => calls === 1, 'the last order is handled again');
    await sleep(30);
    expect(calls).toBe(1);
    expect((await store.readAll()).length).toBe(logAfterFirst.length);
  });
  it('a paced manager waits while its pace says so, then handles the batch; stopped while waiting, it handles nothing', async () => {
    const handled: string[] = [];
    let hold = true;
    const asked: number[] = [];
    const manager: ProcessManager = {
      name: 'paced',
      handles: { Greeted: async (event: RecordedEvent) => void handled.push(event.id) },
      pace: { delayMs: (batch) => (asked.push(batch.length), hold ? 30 : 0) },
    };
    const runner = await startRunner(manager);
    const event = newTestEvent('Greeted');
    const { position: handledAt } = await store.append('p-1', [event]);
    await waitUntil(() => asked.length >= 3, 'asked again after each wait');
    expect(handled).toEqual([]);
    hold = false;
    await waitUntil(() => handled.length === 1, 'handled once the pace lets it');
    expect(handled).toEqual([event.id]);
    // batches with nothing to handle are never paced
    const askedBefore = asked.length;
    await store.append('p-2', [newTestEvent('Other')]);
    await sleep(150);
    expect(asked.length).toBe(askedBefore);

    // held again, then stopped: the event stays past the checkpoint for whoever runs next
    hold = true;
    const later = newTestEvent('Greeted');
    await store.append('p-3', [later]);
    await waitUntil(() => asked.length > askedBefore, 'the held batch is asked about');
    await runner.stop();
    runners.splice(runners.indexOf(runner), 1);
    expect(handled).toEqual([event.id]);
    expect(await checkpointOf('paced')).toEqual(handledAt);
  });
});
