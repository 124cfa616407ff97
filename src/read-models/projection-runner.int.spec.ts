import fs from 'node:fs';
import path from 'node:path';
import { newTestEvent } from '../event-store/event-store.contract';
import type { RecordedEvent } from '../event-store/event-store.port';
import { DomainError } from '../platform/errors/domain-error';
import { applyBatch, readCheckpoint } from './apply/apply-batch';
import { openReadModel } from './generations/open-read-model';
import {
  INCREMENTED,
  actualCounters,
  appendCounterEvents,
  counterProjection,
  expectedFromLog,
  sleep,
  waitUntil,
} from '../../test/fixtures/counter-projection';
import { ReadSide } from '../../test/fixtures/read-side-harness';
import { patient } from '../../test/support/patience';

const NAME = 'counters';

function caught(fn: () => unknown): unknown {
  try {
    fn();
  } catch (error) {
    return error;
  }
  throw new Error('expected a throw');
}

async function stateOf(
  readModels: {
    status(): Promise<
      Array<{ name: string; state: string; position: string; generation: number | null; error: string | null }>
    >;
  },
  name = NAME,
) {
  return (await readModels.status()).find((s) => s.name === name)!;
}

describe('ProjectionRunner / ReadModels on SQLite', () => {
  let side: ReadSide;

  beforeEach(() => {
    side = new ReadSide();
  });

  afterEach(async () => {
    await side.cleanup();
  });

  it('builds a first generation from the existing log, then activates it (building → serving)', async () => {
    const store = await side.openStore();
    const head = await appendCounterEvents(store, { events: 3000, streams: 20, ignoredEvery: 7 });
    // The build stops half-way, inside a batch, until the test has looked at the runner.
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    let blocked = false;
    const projection = counterProjection({
      before: async (event) => {
        if ((event.data as { i: number }).i === 1500) {
          blocked = true;
          await gate;
        }
      },
    });
    const { readModels, registry } = await side.startReadModels([projection], { store });
    await waitUntil(() => blocked, 'the build is half-way');
    try {
      expect((await stateOf(readModels)).state).toBe('building');
      const error = caught(() => readModels.source(NAME));
      expect(error).toBeInstanceOf(DomainError);
      expect(error).toMatchObject({ code: 'READ_MODEL_BUILDING', status: 503 });
      expect(await registry.active(NAME, 1)).toBeNull();
      expect(await registry.building(NAME, 1)).toMatchObject({
        generation: 1,
        version: 1,
        file: path.join(side.dir, 'read-models', NAME, 'v1.g1.sqlite'),
      });
    } finally {
      release();
    }

    await waitUntil(async () => (await stateOf(readModels)).state === 'serving', 'the first generation serves');
    const status = await stateOf(readModels);
    expect(status).toMatchObject({ generation: 1, state: 'serving', position: head, error: null });
    expect((await readModels.status())[0].lagEvents).toBe(0);
    expect(await registry.active(NAME, 1)).toMatchObject({ generation: 1, status: 'active' });
    expect(await registry.building(NAME, 1)).toBeNull();

    const expected = await expectedFromLog(store);
    const actual = await actualCounters(readModels.source(NAME));
    expect(actual.lines).toBe(expected.lines);
    expect(actual.counters).toEqual(expected.counters);
    expect(await readCheckpoint(readModels.source(NAME), NAME)).toBe(head);
  });

  // Regression: activation used to be checked only when a batch arrived, so on an empty log the
  // first generation stayed 'building' (503 READ_MODEL_BUILDING) until some event was appended.
  it('on an empty log the first generation becomes active at once', async () => {
    const { readModels, registry } = await side.startReadModels([counterProjection()]);
    await waitUntil(async () => (await stateOf(readModels)).state === 'serving', 'serving on an empty log', 1000, 5);
    expect(await readModels.source(NAME).query('SELECT count(*) AS n FROM counter')).toEqual([{ n: 0 }]);
    expect(await registry.active(NAME, 1)).toMatchObject({ generation: 1 });
  });

  it('starts several projections on a fresh DATA_DIR: one generation each, all built', async () => {
    // Regression: ReadModels.start() used to start runners concurrently, and their registry.create()
    // transactions collided on the one platform connection ("cannot start a transaction within a transaction").
    const store = await side.openStore();
    await appendCounterEvents(store, { events: 300, streams: 3 });
    const names = ['alpha', 'beta', 'gamma', 'delta'];
    const { readModels, registry } = await side.startReadModels(
      names.map((name) => counterProjection({ name })),
      { store },
    );
    await readModels.waitFor(await store.headPosition(), names);
    expect((await registry.all()).map((r) => [r.name, r.generation, r.status])).toEqual([
      ['alpha', 1, 'active'],
      ['beta', 1, 'active'],
      ['delta', 1, 'active'],
      ['gamma', 1, 'active'],
    ]);
    for (const name of names) expect((await actualCounters(readModels.source(name))).lines).toBe(300);
  });

  it('applies live events as they are committed, not at the next poll of the log', async () => {
    const store = await side.openStore();
    await appendCounterEvents(store, { events: 50, streams: 5 });
    const { readModels } = await side.startReadModels([counterProjection()], { store });
    await waitUntil(async () => (await stateOf(readModels)).state === 'serving', 'serving');
    const source = readModels.source(NAME);

    const latencies: number[] = [];
    for (let i = 0; i < 20; i++) {
      const stream = `live-${i}`;
      const t0 = performance.now();
      await store.append(stream, [newTestEvent(INCREMENTED, { i, by: 1 })]);
      await waitUntil(
        async () => (await source.query('SELECT 1 FROM counter WHERE stream_id = ?', [stream])).length === 1,
        `row for ${stream}`,
        2000,
        1,
      );
      latencies.push(performance.now() - t0);
    }
    latencies.sort((a, b) => a - b);
    // The worst of twenty takes the suite's patience (CI, with two files at once, ran past 100 ms).
    // The median is what catches a runner that waits for the log's poll (100 ms) instead of being
    // woken by the commit: that one's median would be about 50 ms, twice the bound.
    expect(latencies[latencies.length - 1]).toBeLessThan(patient(100));
    expect(latencies[Math.floor(latencies.length / 2)]).toBeLessThan(25);
  });

  it('waitFor(position) resolves once the write is visible', async () => {
    const store = await side.openStore();
    const { readModels } = await side.startReadModels([counterProjection()], { store });
    const first = await store.append('w-0', [newTestEvent(INCREMENTED, { by: 1 })]);
    await readModels.waitFor(first.position, [NAME]);
    expect(await readModels.source(NAME).query('SELECT count FROM counter WHERE stream_id = ?', ['w-0'])).toEqual([
      { count: 1 },
    ]);

    for (let i = 1; i <= 10; i++) {
      const result = await store.append('w-0', [newTestEvent(INCREMENTED, { by: 1 })]);
      await readModels.waitFor(result.position, [NAME]);
      // Read right after: the write is there, nothing polled.
      expect(await readModels.source(NAME).query('SELECT count FROM counter WHERE stream_id = ?', ['w-0'])).toEqual([
        { count: i + 1 },
      ]);
    }
    await expect(readModels.waitFor(null, [NAME])).resolves.toBeUndefined();
    await expect(readModels.waitFor(undefined, [NAME])).resolves.toBeUndefined();
  });

  it('waitFor rejects with 503 READ_MODEL_LAGGING after the timeout when the runner is stopped', async () => {
    const store = await side.openStore();
    await appendCounterEvents(store, { events: 10, streams: 2 });
    const { readModels, stop } = await side.startReadModels([counterProjection()], { store, timeoutMs: 150 });
    await waitUntil(async () => (await stateOf(readModels)).state === 'serving', 'serving');
    await stop();

    const result = await store.append('late', [newTestEvent(INCREMENTED, { by: 1 })]);
    const t0 = Date.now();
    const error = await readModels.waitFor(result.position, [NAME]).then(
      () => null,
      (e: unknown) => e,
    );
    const elapsed = Date.now() - t0;
    expect(error).toBeInstanceOf(DomainError);
    expect(error).toMatchObject({ code: 'READ_MODEL_LAGGING', status: 503, headers: { 'retry-after': '1' } });
    expect(elapsed).toBeGreaterThanOrEqual(140);
    expect(elapsed).toBeLessThan(1000);
  });

  it('waitFor rejects when the runner is slow, and a later waitFor resolves once it catches up', async () => {
    const store = await side.openStore();
    let gate: (() => void) | null = null;
    const gateOpen = new Promise<void>((resolve) => (gate = resolve));
    const projection = counterProjection({
      before: async (event) => {
        if (event.streamId === 'slow') await gateOpen;
      },
    });
    await appendCounterEvents(store, { events: 10, streams: 2 });
    const { readModels } = await side.startReadModels([projection], { store, timeoutMs: 150 });
    await waitUntil(async () => (await stateOf(readModels)).state === 'serving', 'serving');

    const result = await store.append('slow', [newTestEvent(INCREMENTED, { by: 1 })]);
    await expect(readModels.waitFor(result.position, [NAME])).rejects.toMatchObject({
      code: 'READ_MODEL_LAGGING',
      status: 503,
    });
    gate!();
    await readModels.waitFor(result.position, [NAME]);
    expect(await readModels.source(NAME).query('SELECT count FROM counter WHERE stream_id = ?', ['slow'])).toEqual([
      { count: 1 },
    ]);
  });

  it('source(name) throws 503 READ_MODEL_BUILDING until the first generation is active', async () => {
    const store = await side.openStore();
    await appendCounterEvents(store, { events: 200, streams: 4 });
    let gate: (() => void) | null = null;
    const gateOpen = new Promise<void>((resolve) => (gate = resolve));
    const projection = counterProjection({ before: () => gateOpen });
    const { readModels, registry } = await side.startReadModels([projection], { store });

    await sleep(50);
    const error = caught(() => readModels.source(NAME));
    expect(error).toBeInstanceOf(DomainError);
    expect(error).toMatchObject({ code: 'READ_MODEL_BUILDING', status: 503, headers: { 'retry-after': '1' } });
    expect((await stateOf(readModels)).state).toBe('building');
    expect(await registry.active(NAME, 1)).toBeNull();
    expect(() => readModels.source('no-such-model')).toThrow(/no read model named no-such-model/);

    gate!();
    await waitUntil(async () => (await stateOf(readModels)).state === 'serving', 'serving');
    expect((await readModels.source(NAME).query('SELECT count(*) AS n FROM line'))[0].n).toBe(200);
  });

  it('restarts from its checkpoint on the same files without applying anything twice', async () => {
    let calls = 0;
    const projection = counterProjection({
      before: () => {
        calls++;
      },
    });
    const store = await side.openStore();
    await appendCounterEvents(store, { events: 600, streams: 7, ignoredEvery: 5, prefix: 'a' });
    const first = await side.startReadModels([projection], { store });
    const head1 = await store.headPosition();
    await first.readModels.waitFor(head1, [NAME]);
    const handledFirst = (await expectedFromLog(store)).lines;
    expect(calls).toBe(handledFirst);
    await first.stop();

    // The log moves on while no runner is up.
    await appendCounterEvents(store, { events: 400, streams: 9, ignoredEvery: 5, prefix: 'b' });
    const head2 = await store.headPosition();
    calls = 0;

    const second = await side.startReadModels([projection]);
    expect((await stateOf(second.readModels)).generation).toBe(1);
    await second.readModels.waitFor(head2, [NAME]);
    const expected = await expectedFromLog(store);
    // Only the new events ran through the handlers; every row is exact.
    expect(calls).toBe(expected.lines - handledFirst);
    const actual = await actualCounters(second.readModels.source(NAME));
    expect(actual.lines).toBe(expected.lines);
    expect(actual.counters).toEqual(expected.counters);
    expect(await second.registry.all()).toHaveLength(1);
  });

  it('applyBatch applied twice (or overlapping) to the same events changes nothing', async () => {
    const store = await side.openStore();
    await appendCounterEvents(store, { events: 300, streams: 6, ignoredEvery: 4 });
    const events = await store.readAll();
    const projection = counterProjection();
    const source = await openReadModel(projection, path.join(side.dir, 'scratch.sqlite'));
    try {
      const half = events.slice(0, 150);
      expect(await applyBatch(source, projection, half)).toBe(half[half.length - 1].position);
      expect(await applyBatch(source, projection, half)).toBe(half[half.length - 1].position);
      // Overlapping: the first half again, then the rest.
      await applyBatch(source, projection, events);
      await applyBatch(source, projection, events);
      await applyBatch(source, projection, events.slice(100, 200));

      const expected = await expectedFromLog(store);
      const actual = await actualCounters(source);
      expect(actual.lines).toBe(expected.lines);
      expect(actual.counters).toEqual(expected.counters);
      expect(await readCheckpoint(source, NAME)).toBe(events[events.length - 1].position);
    } finally {
      await source.destroy();
    }
  });

  // Regression: TypeORM's better-sqlite3 driver has one query runner per DataSource, so queries on
  // the writer's data source ran inside the open applyBatch transaction and saw rows that could
  // still roll back. source() must hand out a connection that only sees committed batches.
  it('a query through source() does not see the rows of a batch that is still being applied', async () => {
    const store = await side.openStore();
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    let blocked = false;
    let blocks = 0;
    const projection = counterProjection({
      before: async (event) => {
        if ((event.data as { block?: boolean }).block && blocks++ === 0) {
          blocked = true;
          await gate;
          throw new Error('this batch rolls back');
        }
      },
    });
    const { readModels } = await side.startReadModels([projection], { store });
    await readModels.waitFor((await store.append('x', [newTestEvent(INCREMENTED, { by: 1 })])).position, [NAME]);
    const reader = readModels.source(NAME);
    const y = await store.append('y', [
      newTestEvent(INCREMENTED, { by: 1 }),
      newTestEvent(INCREMENTED, { by: 1, block: true }),
    ]);
    await waitUntil(() => blocked, 'the batch for y is open');
    try {
      // Half of y's batch is written, uncommitted: a query must not see it.
      expect(await reader.query("SELECT * FROM counter WHERE stream_id = 'y'")).toEqual([]);
      expect(await readModels.source(NAME).query("SELECT * FROM counter WHERE stream_id = 'y'")).toEqual([]);
    } finally {
      release();
    }
    // That batch rolls back; applied again event by event, both events apply.
    await readModels.waitFor(y.position, [NAME]);
    expect(await readModels.source(NAME).query("SELECT count, total FROM counter WHERE stream_id = 'y'")).toEqual([
      { count: 2, total: 2 },
    ]);
  });

  it('a handler throwing once on an event: the batch rolls back and is applied again event by event, losing nothing', async () => {
    const store = await side.openStore();
    let poisonCalls = 0;
    const projection = counterProjection({
      before: (event: RecordedEvent) => {
        if ((event.data as { poison?: boolean }).poison) {
          poisonCalls++;
          if (poisonCalls === 1) throw new Error('poison pill: cannot apply this event');
        }
      },
    });
    await appendCounterEvents(store, { events: 100, streams: 5 });
    const { readModels, registry } = await side.startReadModels([projection], { store });
    await readModels.waitFor(await store.headPosition(), [NAME]);

    // One batch: good, poison, good. The whole batch fails once; event by event, each applies.
    await store.append('p', [
      newTestEvent(INCREMENTED, { by: 1 }),
      newTestEvent(INCREMENTED, { by: 2, poison: true }),
      newTestEvent(INCREMENTED, { by: 4 }),
    ]);
    await readModels.waitFor(await store.headPosition(), [NAME]);
    const after = await stateOf(readModels);
    expect(after.error).toBeNull();
    expect(after.state).toBe('serving');
    expect(poisonCalls).toBe(2);
    expect(await registry.deadLetters.list()).toEqual([]);
    const expected = await expectedFromLog(store);
    const actual = await actualCounters(readModels.source(NAME));
    expect(actual.lines).toBe(expected.lines);
    expect(actual.counters).toEqual(expected.counters);
    expect(actual.counters.get('p')).toEqual({ count: 3, total: 7, lastType: INCREMENTED });
    expect(fs.existsSync(path.join(side.dir, 'read-models', NAME, 'v1.g1.sqlite'))).toBe(true);
  });
});
