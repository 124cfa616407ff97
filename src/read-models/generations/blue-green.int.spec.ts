import fs from 'node:fs';
import path from 'node:path';
import { newTestEvent } from '../../event-store/event-store.contract';
import { readCheckpoint } from '../apply/apply-batch';
import { rebuild } from './rebuild';
import { verify } from './verify';
import {
  INCREMENTED,
  actualCounters,
  appendCounterEvents,
  counterProjection,
  expectedFromLog,
  sleep,
  waitUntil,
} from '../../../test/fixtures/counter-projection';
import { ReadSide } from '../../../test/fixtures/read-side-harness';
import { COUNTER_CATALOG, COUNTERS, COUNTERS_V2 } from '../../../test/fixtures/counter-catalog';
import type { Projection } from '../projection';
import { patient } from '../../../test/support/patience';
import { ApplyThread } from '../apply/thread-applier';

const NAME = 'counters';

describe.each([
  ['inline', false],
  ['on the apply thread', true],
])('blue/green generations (batches applied %s)', (_mode, threaded) => {
  let side: ReadSide;
  const counters = (version = 1) =>
    threaded ? (version === 1 ? COUNTERS : COUNTERS_V2) : counterProjection({ version });
  const start = (projections: Projection[], options: Parameters<ReadSide['startReadModels']>[1] = {}) =>
    side.startReadModels(projections, {
      ...options,
      applyThread: threaded ? new ApplyThread(COUNTER_CATALOG) : undefined,
    });

  beforeEach(() => {
    side = new ReadSide();
  });

  afterEach(async () => {
    await side.cleanup();
  });

  it('rebuild() makes generation 2 active; the running runner follows, keeps applying into it, and the old file goes', async () => {
    const projection = counters();
    const store = await side.openStore();
    await appendCounterEvents(store, { events: 2000, streams: 10, ignoredEvery: 6 });
    const server = await start([projection], { store });
    await server.readModels.waitFor(await store.headPosition(), [NAME]);
    const g1 = (await server.registry.active(NAME, 1))!;
    expect(g1.generation).toBe(1);
    expect(fs.existsSync(g1.file)).toBe(true);

    // The CLI: its own connections to the same files, while the server keeps taking writes.
    const cliStore = await side.openStore();
    const cliPlatform = await side.openPlatform();
    const appending = (async () => {
      for (let i = 0; i < 20; i++) {
        await store.append(`during-${i % 3}`, [newTestEvent(INCREMENTED, { by: 1, i })]);
        await sleep(2);
      }
    })();
    const report = await rebuild(projection, cliStore, side.registry(cliPlatform));
    await appending;
    expect(report).toMatchObject({ name: NAME, version: 1, generation: 2 });
    expect(report.events).toBeGreaterThanOrEqual(2000);
    const g2 = (await server.registry.active(NAME, 1))!;
    expect(g2).toMatchObject({
      generation: 2,
      status: 'active',
      file: path.join(side.dir, 'read-models', NAME, 'v1.g2.sqlite'),
    });
    const rows = await server.registry.all();
    expect(rows.map((r) => [r.generation, r.status])).toEqual([
      [1, 'retired'],
      [2, 'active'],
    ]);

    // The server follows the switch within about a second and a half (WATCH_MS, and the registry's
    // half-second snapshot), and removes the old file.
    const t0 = Date.now();
    await waitUntil(
      async () => (await server.readModels.status())[0].generation === 2,
      'the runner attaches generation 2',
      patient(2500),
      10,
    );
    const followMs = Date.now() - t0;
    expect(followMs).toBeLessThan(patient(2500));
    await waitUntil(() => !fs.existsSync(g1.file), 'the old generation file is deleted', patient(1000), 10);
    expect(fs.existsSync(`${g1.file}-wal`)).toBe(false);
    expect((await server.readModels.status())[0]).toMatchObject({ state: 'serving', generation: 2, error: null });

    // New events land in generation 2.
    const last = await store.append('after-switch', [newTestEvent(INCREMENTED, { by: 5 })]);
    await server.readModels.waitFor(last.position, [NAME]);
    const source = server.readModels.source(NAME);
    expect((source.options as { database: string }).database).toBe(g2.file);
    expect(await readCheckpoint(source, NAME)).toBe(last.position);
    const expected = await expectedFromLog(store);
    const actual = await actualCounters(source);
    expect(actual.lines).toBe(expected.lines);
    expect(actual.counters).toEqual(expected.counters);
    expect((await verify(projection, cliStore, side.registry(cliPlatform))).differences).toBe(0);
  });

  it('a version bump builds a fresh generation beside the old version, whose row stays active for old code', async () => {
    const v1 = counters(1);
    const store = await side.openStore();
    await appendCounterEvents(store, { events: 500, streams: 5 });
    const oldServer = await start([v1], { store });
    await oldServer.readModels.waitFor(await store.headPosition(), [NAME]);

    // New code: same name, version 2, its own connections (another process in a rolling deploy).
    const v2 = counters(2);
    const newServer = await start([v2]);
    expect((await newServer.readModels.status())[0]).toMatchObject({ version: 2, generation: 2 });
    await newServer.readModels.waitFor(await store.headPosition(), [NAME]);

    const rows = await newServer.registry.all();
    expect(rows.map((r) => [r.version, r.generation, r.status, path.basename(r.file)])).toEqual([
      [1, 1, 'active', 'v1.g1.sqlite'],
      [2, 2, 'active', 'v2.g2.sqlite'],
    ]);
    expect(await newServer.registry.active(NAME, 1)).toMatchObject({ generation: 1 });
    expect(await newServer.registry.active(NAME, 2)).toMatchObject({ generation: 2 });

    // Both keep serving their own file, both up to date.
    const last = await store.append('both', [newTestEvent(INCREMENTED, { by: 1 })]);
    await oldServer.readModels.waitFor(last.position, [NAME]);
    await newServer.readModels.waitFor(last.position, [NAME]);
    await sleep(1100); // one watch round: the old runner must not jump to version 2's generation
    const oldStatus = (await oldServer.readModels.status())[0];
    expect(oldStatus).toMatchObject({ version: 1, generation: 1, state: 'serving' });
    const expected = await expectedFromLog(store);
    for (const source of [oldServer.readModels.source(NAME), newServer.readModels.source(NAME)]) {
      const actual = await actualCounters(source);
      expect(actual.lines).toBe(expected.lines);
      expect(actual.counters).toEqual(expected.counters);
    }
    expect(fs.existsSync(path.join(side.dir, 'read-models', NAME, 'v1.g1.sqlite'))).toBe(true);
    expect(fs.existsSync(path.join(side.dir, 'read-models', NAME, 'v2.g2.sqlite'))).toBe(true);
  });

  /** A read model built over 300 events, then the log replaced by an older backup of 40 other ones. */
  async function aheadOfItsLog() {
    const projection = counters();
    const store = await side.openStore();
    await appendCounterEvents(store, { events: 300, streams: 5 });
    const before = await start([projection], { store });
    await before.readModels.waitFor(await store.headPosition(), [NAME]);
    await before.stop();
    await store.close();
    for (const suffix of ['', '-wal', '-shm'])
      fs.rmSync(path.join(side.dir, `events.sqlite${suffix}`), { force: true });
    const restored = await side.openStore();
    await appendCounterEvents(restored, { events: 40, streams: 3, prefix: 'restored' });
    return { projection, restored };
  }

  async function expectBuiltFrom(
    restored: Awaited<ReturnType<ReadSide['openStore']>>,
    server: Awaited<ReturnType<typeof start>>,
    generation: number,
  ) {
    await server.readModels.waitFor(await restored.headPosition(), [NAME]);
    expect((await server.readModels.status())[0]).toMatchObject({ generation, state: 'serving' });
    const expected = await expectedFromLog(restored);
    const actual = await actualCounters(server.readModels.source(NAME));
    expect(actual.lines).toBe(expected.lines);
    expect(actual.counters).toEqual(expected.counters);
    return expected;
  }

  it('a read model ahead of its log (the log restored from an older backup) is built again from the log', async () => {
    const { projection, restored } = await aheadOfItsLog();
    const after = await start([projection], { store: restored });
    const expected = await expectBuiltFrom(restored, after, 2);
    expect((await after.registry.all()).map((r) => [r.generation, r.status])).toEqual([
      [1, 'retired'],
      [2, 'active'],
    ]);
    // and it goes on from there
    const next = await restored.append('restored-0', [newTestEvent(INCREMENTED, { by: 1 })]);
    await after.readModels.waitFor(next.position, [NAME]);
    expect((await actualCounters(after.readModels.source(NAME))).lines).toBe(expected.lines + 1);
  });

  it('a restart while that build goes on continues it, rather than starting another', async () => {
    const { projection, restored } = await aheadOfItsLog();
    // the build a previous start began, stopped before it caught up
    await side.registry(await side.openPlatform()).create(NAME, 1, new Date().toISOString());
    const after = await start([projection], { store: restored });
    await expectBuiltFrom(restored, after, 2);
    expect((await after.registry.all()).map((r) => [r.generation, r.status])).toEqual([
      [1, 'retired'],
      [2, 'active'],
    ]);
  });
});
