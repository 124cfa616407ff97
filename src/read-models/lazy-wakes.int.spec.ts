import { newTestEvent } from '../event-store/event-store.contract';
import type { RecordedEvent, SubscribeOptions, Subscription } from '../event-store/event-store.port';
import type { SqliteEventStore } from '../event-store/sqlite/sqlite-event-store';
import type { SqliteSubscription } from '../event-store/sqlite/subscription';
import { ProcessManagerRunner } from '../process-managers/process-manager';
import { IGNORED, INCREMENTED, counterProjection, sleep, waitUntil } from '../../test/fixtures/counter-projection';
import { ReadSide, silentLogger } from '../../test/fixtures/read-side-harness';

/** Longer than any test here runs: with it, only an eager wake or a nudge delivers anything. */
const NEVER_MS = 600_000;

/**
 * A store whose subscriptions wake lazily and which never polls: a poll looks for other processes'
 * appends, which these tests have none of, so only this process's commits and nudges wake anyone.
 */
const lazyStore = (side: ReadSide) => side.openStore({ lazyWakeMs: NEVER_MS, pollIntervalMs: NEVER_MS });

const increment = () => newTestEvent(INCREMENTED, { i: 0, by: 1 });
/** Until `count` subscriptions sleep at the head of the log (the store's waiters: private, read for the test). */
const asleep = (store: SqliteEventStore, count: number) =>
  waitUntil(
    () => (store as unknown as { waiters: { size: number } }).waiters.size >= count,
    `${count} subscriptions asleep`,
  );
const ignored = () => newTestEvent(IGNORED, { i: 0 });

/**
 * Commits of no type a subscription wakes for reach it lazily (append-waiters.ts): on a real
 * SQLite store, read models and process managers. What must hold: nothing is skipped or
 * reordered, a wanted type still wakes at once, and whoever waits for a position gets it now.
 */
describe('lazy wakes for the types a subscription passes over', () => {
  let side: ReadSide;
  const subscriptions: Subscription[] = [];

  beforeEach(() => {
    side = new ReadSide();
  });

  afterEach(async () => {
    for (const subscription of subscriptions.splice(0)) await subscription.stop();
    await side.cleanup();
  });

  function collect(store: SqliteEventStore, options: SubscribeOptions) {
    const seen: RecordedEvent[] = [];
    const subscription = store.subscribeToAll(options, (batch) => void seen.push(...batch));
    subscriptions.push(subscription);
    return { seen, subscription };
  }

  it('a commit of other types waits; the next wanted one brings it along, in log order; a nudge delivers at once', async () => {
    const store = await lazyStore(side);
    const { seen, subscription } = collect(store, { wakeFor: (type) => type === INCREMENTED });
    const eager = collect(store, {});
    await asleep(store, 2);

    const first = ignored();
    await store.append('s-1', [first]);
    await waitUntil(() => eager.seen.length === 1, 'the subscription without a hint has it at once');
    await sleep(100);
    expect(seen).toEqual([]);

    const wanted = increment();
    await store.append('s-2', [wanted]);
    await waitUntil(() => seen.length === 2, 'the wanted event and the one before it');
    expect(seen.map((e) => e.id)).toEqual([first.id, wanted.id]);

    const later = ignored();
    await store.append('s-1', [later]);
    await sleep(50);
    expect(seen).toHaveLength(2);
    subscription.nudge();
    await waitUntil(() => seen.length === 3, 'the nudged delivery');
    expect(seen[2].id).toBe(later.id);
  });

  it('without a nudge, a commit of other types arrives within the lazy delay', async () => {
    const store = await side.openStore();
    const { seen } = collect(store, { wakeFor: (type) => type === INCREMENTED });
    await asleep(store, 1);
    const event = ignored();
    await store.append('s-1', [event]);
    await waitUntil(() => seen.length === 1, 'the lazy delivery', 2000);
    expect(seen[0].id).toBe(event.id);
  });

  it('a filter is its own hint: events it drops leave the subscription asleep, the ones it keeps wake it at once', async () => {
    const store = await lazyStore(side);
    const { seen, subscription } = collect(store, { filterTypes: (type) => type === INCREMENTED });
    await asleep(store, 1);
    const readThrough = () => (subscription as SqliteSubscription).readThrough;
    const before = readThrough();
    await store.append('s-1', [ignored()]);
    await sleep(100);
    expect(readThrough()).toBe(before); // woken, it would have read past the dropped event
    const wanted = increment();
    await store.append('s-2', [wanted]);
    await waitUntil(() => seen.length === 1, 'the kept event');
    expect(seen[0].id).toBe(wanted.id);
    expect(readThrough()).toBe(await store.headPosition());
  });

  it('a read model waited on for a position of events it does not handle gets there at once', async () => {
    const store = await lazyStore(side);
    const { readModels } = await side.startReadModels([counterProjection()], { store });
    await store.append('c-1', [increment()]);
    await readModels.waitFor(await store.headPosition(), ['counters']);
    // reaching the head during its catch-up read is not yet sleeping there: a busy machine can still
    // be reading when the next appends land, and read through them
    await asleep(store, 1);
    // ignored by the read model: its subscription would sleep through these until the next counter event
    await store.append('c-2', [ignored(), ignored()]);
    const head = await store.headPosition();
    await sleep(100);
    const positionOf = async () => (await readModels.status()).find((s) => s.name === 'counters')!.position;
    expect(await positionOf()).not.toBe(head); // its runner passed the hint: nothing woke it
    // without the nudge this times out (READ_MODEL_LAGGING after the harness's 2 s)
    await readModels.waitFor(head, ['counters']);
    expect(await positionOf()).toBe(head);
  });

  it('a process manager still wakes at once for the events it handles', async () => {
    const store = await lazyStore(side);
    const platform = await side.openPlatform();
    const handled: string[] = [];
    const runner = new ProcessManagerRunner(
      { name: 'incrementer', handles: { [INCREMENTED]: async (e) => void handled.push(e.id) } },
      store,
      platform,
      silentLogger,
    );
    await runner.start();
    try {
      await asleep(store, 1);
      const before = runner.position;
      await store.append('p-1', [ignored()]);
      await sleep(100);
      expect(runner.position).toBe(before); // it passed the hint: the ignored event did not wake it
      const wanted = increment();
      await store.append('p-2', [wanted]);
      await waitUntil(() => handled.length === 1, 'the handled event');
      expect(handled).toEqual([wanted.id]);
      expect(runner.position).toBe(await store.headPosition());
    } finally {
      await runner.stop();
    }
  });
});
