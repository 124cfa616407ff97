import { newTestEvent } from '../../src/event-store/event-store.contract';
import type { RecordedEvent } from '../../src/event-store/event-store.port';
import { LazyStoredEvent } from '../../src/event-store/sqlite/rows';
import { defineProjection, type Projection } from '../../src/read-models/projection';
import type { ReadModels } from '../../src/read-models/read-models.service';
import {
  INCREMENTED,
  IGNORED,
  actualCounters,
  appendCounterEvents,
  counterProjection,
  CounterRow,
} from '../fixtures/counter-projection';
import { ReadSide } from '../fixtures/read-side-harness';
import { patient } from '../support/patience';

const statusOf = async (readModels: ReadModels, name: string) =>
  (await readModels.status()).find((s) => s.name === name)!;

/** A read model that handles one type no test appends: every batch only moves its position. */
function unrelatedProjection(calls: { n: number }): Projection {
  return defineProjection({
    name: 'unrelated',
    version: 1,
    entities: [CounterRow],
    handles: {
      NeverAppended: () => {
        calls.n++;
      },
    },
  });
}

async function until(condition: () => Promise<boolean> | boolean, ms: number): Promise<void> {
  const deadline = Date.now() + patient(ms);
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe('the log feed: one reader of the log for every runner', () => {
  let side: ReadSide;

  beforeEach(() => {
    side = new ReadSide();
  });
  afterEach(() => side.cleanup());

  it('reads each commit once whatever the number of runners, and a runner with nothing to apply only advances', async () => {
    const calls = { n: 0 };
    const names = Array.from({ length: 8 }, (_, i) => `counters-${i}`);
    const projections = [...names.map((name) => counterProjection({ name })), unrelatedProjection(calls)];
    const store = await side.openStore();
    const reads = jest.spyOn(store, 'readAllSync');
    const { readModels } = await side.startReadModels(projections, { store });
    expect(readModels.feed.members).toBe(projections.length);

    const commits = 20;
    reads.mockClear();
    const readsBefore = readModels.feed.reads;
    let last = null;
    for (let i = 0; i < commits; i++) {
      last = (await store.append(`s-${i % 3}`, [newTestEvent(INCREMENTED, { by: 1 })])).position;
      // read-your-writes on every runner still resolves
      await readModels.waitFor(last, names);
    }
    // one read per commit (and perhaps one that found the end), not one per runner per commit
    expect(reads.mock.calls.length).toBeLessThanOrEqual(commits + 3);
    expect(readModels.feed.reads - readsBefore).toBeLessThanOrEqual(commits);
    for (const name of names) {
      const { counters } = await actualCounters(readModels.source(name));
      expect([...counters.values()].reduce((sum, c) => sum + c.count, 0)).toBe(commits);
    }
    // the runner that handles none of these types applied nothing and still reached the head
    await readModels.waitFor(last, ['unrelated']);
    expect((await statusOf(readModels, 'unrelated')).position).toBe(last);
    expect(calls.n).toBe(0);
  });

  it('a handler that cannot apply an event neither stops nor rolls back the other runners', async () => {
    const broken = counterProjection({
      name: 'broken',
      before: (event: RecordedEvent) => {
        if ((event.data as { poison?: boolean }).poison) throw new Error('cannot apply this one');
      },
    });
    const healthy = counterProjection({ name: 'healthy' });
    const { readModels, store, registry } = await side.startReadModels([broken, healthy]);
    await store.append('tenant-a', [newTestEvent(INCREMENTED, { by: 1 })]);
    const poison = await store.append('tenant-b', [newTestEvent(INCREMENTED, { by: 10, poison: true })]);
    const after = await store.append('tenant-c', [newTestEvent(INCREMENTED, { by: 2 })]);
    await readModels.waitFor(after.position, ['broken', 'healthy']);

    const healthyRows = (await actualCounters(readModels.source('healthy'))).counters;
    expect([...healthyRows.keys()].sort()).toEqual(['tenant-a', 'tenant-b', 'tenant-c']);
    const brokenRows = (await actualCounters(readModels.source('broken'))).counters;
    expect([...brokenRows.keys()].sort()).toEqual(['tenant-a', 'tenant-c']);
    const letters = await registry.deadLetters.list({ name: 'broken' });
    expect(letters.map((l) => l.position)).toEqual([poison.position]);
    expect(await registry.deadLetters.list({ name: 'healthy' })).toEqual([]);

    // both go on with what follows, on the shared feed
    const later = await store.append('tenant-d', [newTestEvent(INCREMENTED, { by: 3 })]);
    await readModels.waitFor(later.position, ['broken', 'healthy']);
    expect((await actualCounters(readModels.source('broken'))).counters.get('tenant-d')).toMatchObject({ total: 3 });
  });

  it('a generation rebuilding from the start does not hold back the runners that keep up, and joins the feed once built', async () => {
    const store = await side.openStore();
    const platform = await side.openPlatform();
    // 12,000 events to catch up on: the default read-your-writes bound is a request's, not a catch-up's
    const first = await side.startReadModels([counterProjection({ name: 'live' })], {
      store,
      platform,
      timeoutMs: patient(30_000),
    });
    // more than the feed's near-the-head bound: the new generation builds on a read of its own
    const head = await appendCounterEvents(store, { events: 12_000, streams: 40, ignoredEvery: 7 });
    await first.readModels.waitFor(head, ['live']);
    await first.stop();

    let slow = true;
    const rebuilding = counterProjection({
      name: 'rebuilding',
      before: async () => {
        if (slow) await new Promise((resolve) => setTimeout(resolve, 1));
      },
    });
    const { readModels } = await side.startReadModels([counterProjection({ name: 'live' }), rebuilding], {
      store,
      platform,
      timeoutMs: patient(5000),
    });
    const write = await store.append('fresh', [newTestEvent(INCREMENTED, { by: 5 })]);
    await readModels.waitFor(write.position, ['live']);
    expect((await actualCounters(readModels.source('live'))).counters.get('fresh')).toMatchObject({ total: 5 });
    expect((await statusOf(readModels, 'rebuilding')).state).toBe('building');

    slow = false;
    await until(async () => (await statusOf(readModels, 'rebuilding')).state === 'serving', 60_000);
    await readModels.waitFor(write.position, ['rebuilding']);
    await until(() => readModels.feed.members === 2, 10_000);
    const next = await store.append('fresh', [newTestEvent(IGNORED, { i: 1 }), newTestEvent(INCREMENTED, { by: 1 })]);
    await readModels.waitFor(next.position, ['live', 'rebuilding']);
    expect((await actualCounters(readModels.source('rebuilding'))).counters.get('fresh')).toMatchObject({ total: 6 });
  }, 120_000);

  it('runners far behind at start catch up together on one read', async () => {
    const store = await side.openStore();
    const head = await appendCounterEvents(store, { events: 12_000, streams: 40 });
    const names = ['a', 'b', 'c', 'd'].map((x) => `counters-${x}`);
    const reads = jest.spyOn(store, 'readAllSync');
    const { readModels } = await side.startReadModels(
      names.map((name) => counterProjection({ name })),
      { store, timeoutMs: patient(30_000) },
    );
    await readModels.waitFor(head, names);
    for (const name of names) expect((await actualCounters(readModels.source(name))).lines).toBe(12_000);
    // 12 pages of 1,000 read once for all four (each alone would read 12 pages)
    expect(reads.mock.calls.length).toBeLessThan(12 * names.length);
    // the shared read parses an event when a handler first reads it (these apply inline, and did)
    const lazy = reads.mock.calls.flatMap((call, i) => (call[2] === true ? reads.mock.results[i].value : []));
    expect(lazy.length).toBeGreaterThanOrEqual(10_000);
    expect(lazy.every((event: RecordedEvent) => event instanceof LazyStoredEvent)).toBe(true);
    await until(() => readModels.feed.members === names.length, 10_000);
  }, 120_000);
});
