import { appendCounterEvents, counterProjection, waitUntil } from '../fixtures/counter-projection';
import { ReadSide } from '../fixtures/read-side-harness';

/** Catch-up must not starve the event loop: requests and timers keep being served while a big log is applied. */
describe('read-model engine: event loop during catch-up', () => {
  let side: ReadSide;

  beforeEach(() => {
    side = new ReadSide();
  });

  afterEach(async () => {
    await side.cleanup();
  });

  // subscription.ts + applyBatch: better-sqlite3 is synchronous and TypeORM only wraps it in
  // promises, so catching up never yields to the event loop: a build blocks HTTP, timers and
  // health checks until it is done (about 1 s here; minutes for a large log).
  it('the event loop keeps turning while a large log is built', async () => {
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
