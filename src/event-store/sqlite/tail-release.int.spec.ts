import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { newTestEvent } from '../event-store.contract';
import type { RecordedEvent, SubscribeOptions, Subscription } from '../event-store.port';
import { START } from '../position';
import { SqliteEventStore } from './sqlite-event-store';
import type { TailWindow } from './tail-window';
import { globalPositionOf } from './rows';
import { waitUntil } from '../../../test/fixtures/counter-projection';

/**
 * The tail window lets go of what its readers have read (sqlite-event-store.ts, releaseTail):
 * a reader held back inside it, one far behind it, and one at the head all still get every event
 * once, in order, however the window was cut meanwhile.
 */
describe('SqliteEventStore tail window release', () => {
  let dir: string;
  let store: SqliteEventStore;
  const subscriptions: Subscription[] = [];

  beforeEach(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'parley-tail-'));
    store = await SqliteEventStore.open({ file: path.join(dir, 'events.sqlite'), sync: 'normal' });
  });

  afterEach(async () => {
    for (const s of subscriptions.splice(0)) await s.stop();
    await store.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  function collect(options: SubscribeOptions, gate?: Promise<void>) {
    const seen: string[] = [];
    subscriptions.push(
      store.subscribeToAll(options, async (batch: RecordedEvent[]) => {
        if (gate) await gate;
        seen.push(...batch.map((e) => e.id));
      }),
    );
    return seen;
  }

  /** The store's window (private: read for the test). */
  const windowOf = () => (store as unknown as { tail: TailWindow }).tail;

  async function appendMany(count: number, perAppend: number): Promise<string[]> {
    const ids: string[] = [];
    const appends: Array<Promise<unknown>> = [];
    for (let i = 0; i < count; i += perAppend) {
      const events = Array.from({ length: Math.min(perAppend, count - i) }, (_, j) =>
        newTestEvent('Tail', { i: i + j }),
      );
      ids.push(...events.map((e) => e.id));
      appends.push(store.append(`tail-${i % 7}`, events));
    }
    await Promise.all(appends);
    return ids;
  }

  it('a reader held back while thousands of commits pass, and one at the head, each get every event in order', async () => {
    let open!: () => void;
    const gate = new Promise<void>((resolve) => (open = resolve));
    const head = collect({ maxBatchSize: 100 });
    const held = collect({ maxBatchSize: 100 }, gate);
    const ids: string[] = [];
    // one append at a time: a commit each, so the window is cut again and again while `held` waits
    for (let round = 0; round < 30; round++) ids.push(...(await appendMany(100, 10)));
    await waitUntil(() => head.length === ids.length, 'the reader at the head has all');
    // the held reader has read one batch: the window still starts right after it
    expect(windowOf().first).toBeLessThanOrEqual(101);
    open();
    await waitUntil(() => held.length === ids.length, 'the held reader has all');
    expect(head).toEqual(ids);
    expect(held).toEqual(ids);
    // both at the head: the next commits let the window go down to its last events
    for (let round = 0; round < 3; round++) ids.push(...(await appendMany(100, 10)));
    await waitUntil(() => head.length === ids.length && held.length === ids.length, 'both have the last ones');
    await appendMany(10, 10);
    expect(windowOf().size).toBeLessThan(200);
    expect(windowOf().last).toBe(globalPositionOf(await store.headPosition()));
  });

  it('a reader that starts far behind a window past its capacity reads the file, then joins the window', async () => {
    const ids = await appendMany(12_500, 250);
    const live = collect({ after: await store.headPosition(), maxBatchSize: 1000 });
    const late = collect({ after: START, maxBatchSize: 1000 });
    ids.push(...(await appendMany(500, 5)));
    await waitUntil(() => late.length === ids.length && live.length === 500, 'both readers caught up');
    expect(late).toEqual(ids);
    expect(live).toEqual(ids.slice(-500));
  });
});
