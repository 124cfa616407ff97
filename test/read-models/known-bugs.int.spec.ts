import { newTestEvent } from '../../src/event-store/event-store.contract';
import { INCREMENTED, appendCounterEvents, counterProjection, sleep, waitUntil } from '../fixtures/counter-projection';
import { ReadSide } from '../fixtures/read-side-harness';

/**
 * Bugs found while writing the read-model integration tests, pinned with `it.failing`: each test
 * states the behaviour we want and currently FAILS, which Jest reports as a pass. When a fix lands
 * the test starts passing, Jest reports it as a failure, and `.failing` should then be removed.
 */
describe('read-model engine: known bugs (it.failing until fixed)', () => {
  let side: ReadSide;

  beforeEach(() => {
    side = new ReadSide();
  });

  afterEach(async () => {
    await side.cleanup();
  });

  // projection-runner.ts: activation is only checked in onBatch(), so with no event to deliver a
  // building generation never becomes active: source() answers 503 READ_MODEL_BUILDING for ever.
  it.failing('on an empty log the first generation becomes active without waiting for a first event', async () => {
    const { readModels } = await side.startReadModels([counterProjection()]);
    await waitUntil(async () => (await readModels.status())[0].state === 'serving', 'serving on an empty log', 1000, 10);
    expect(() => readModels.source('counters')).not.toThrow();
  });

  // TypeORM's better-sqlite3 driver has ONE query runner per DataSource: a query on the data source
  // that ReadModels.source() hands out runs inside the runner's open applyBatch transaction and
  // sees rows that may still be rolled back (and a second transaction would nest as a savepoint).
  it.failing('a query through source() does not see the rows of a batch that is still being applied', async () => {
    const store = await side.openStore();
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    let blocked = false;
    const projection = counterProjection({
      before: async (event) => {
        if ((event.data as { block?: boolean }).block) {
          blocked = true;
          await gate;
          throw new Error('this batch rolls back');
        }
      },
    });
    const { readModels } = await side.startReadModels([projection], { store });
    await readModels.waitFor((await store.append('x', [newTestEvent(INCREMENTED, { by: 1 })])).position, ['counters']);
    await store.append('y', [newTestEvent(INCREMENTED, { by: 1 }), newTestEvent(INCREMENTED, { by: 1, block: true })]);
    await waitUntil(() => blocked, 'the batch for y is open');
    try {
      const rows = await readModels.source('counters').query("SELECT * FROM counter WHERE stream_id = 'y'");
      expect(rows).toEqual([]); // actual: the uncommitted row of y
    } finally {
      release();
      await sleep(20);
    }
  });

  // subscription.ts + applyBatch: better-sqlite3 is synchronous and TypeORM only wraps it in
  // promises, so catching up never yields to the event loop: a build blocks HTTP, timers and
  // health checks until it is done (about 1 s here; minutes for a large log).
  it.failing('the event loop keeps turning while a large log is built', async () => {
    const store = await side.openStore();
    await appendCounterEvents(store, { events: 20_000, streams: 40, chunk: 1000 });
    let last = performance.now();
    let maxGap = 0;
    const ticker = setInterval(() => {
      const now = performance.now();
      maxGap = Math.max(maxGap, now - last);
      last = now;
    }, 5);
    try {
      last = performance.now();
      const { readModels } = await side.startReadModels([counterProjection()], { store });
      await waitUntil(async () => (await readModels.status())[0].state === 'serving', 'built', 20_000);
    } finally {
      clearInterval(ticker);
    }
    expect(maxGap).toBeLessThan(250);
  });
});
