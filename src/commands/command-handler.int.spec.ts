import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { SqliteEventStore } from '../event-store/sqlite/sqlite-event-store';
import { ManualClock } from '../platform/clock/clock';
import { DomainError } from '../platform/errors/domain-error';
import { toNewEvents } from './command-handler';
import { Commands } from './commands';
import type { Decider, DomainEvent } from './decider';

type Added = DomainEvent<'Added', { by: number; total: number }>;
interface Add {
  by: number;
  max?: number;
}

/** A counter that refuses to pass `max`: enough to see ordering, retries and refusals. */
const counter: Decider<{ total: number }, Add, Added> = {
  initialState: () => ({ total: 0 }),
  evolve: (state, event) => ({ total: event.data.total }),
  decide: (command, state) => {
    const total = state.total + command.by;
    if (command.max !== undefined && total > command.max) throw new DomainError('TOO_MUCH', 'over the maximum', 409);
    return command.by === 0 ? [] : [{ type: 'Added', data: { by: command.by, total } }];
  },
};

describe('CommandHandler', () => {
  let dir: string;
  let store: SqliteEventStore;
  const clock = new ManualClock(Date.parse('2026-01-01T00:00:00Z'));
  const context = { actor: 'test', correlationId: 'c1' };
  // the counter's handler, with or without a cache (a fresh Commands each: one handler per decider)
  const handler = (cache = false) =>
    new Commands(store, clock).for(counter, cache ? { cache: { capacity: 2000 } } : {});

  beforeEach(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'parley-cmd-'));
    store = await SqliteEventStore.open({ file: path.join(dir, 'events.sqlite'), sync: 'normal' });
  });
  afterEach(async () => {
    await store.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('appends what the decider decides, with the metadata of the context', async () => {
    const result = await handler().handle('counter-1', { by: 2 }, context);
    expect(result.state).toEqual({ total: 2 });
    const [event] = await store.readStream('counter-1');
    expect(event).toMatchObject({ type: 'Added', data: { by: 2, total: 2 }, position: result.position });
    expect(event.metadata).toMatchObject({
      schemaVersion: 1,
      actor: 'test',
      correlationId: 'c1',
      causationId: null,
      occurredAt: '2026-01-01T00:00:00.000Z',
    });
  });

  it('decides nothing: appends nothing and returns no position', async () => {
    expect((await handler().handle('counter-1', { by: 0 }, context)).position).toBeNull();
    expect(await store.readStream('counter-1')).toEqual([]);
  });

  it('runs concurrent commands on one stream one after the other: none lost, totals consecutive', async () => {
    const counters = handler(true);
    await Promise.all(Array.from({ length: 50 }, () => counters.handle('counter-1', { by: 1 }, context)));
    const events = await store.readStream('counter-1');
    expect(events.map((e) => (e.data as Added['data']).total)).toEqual(Array.from({ length: 50 }, (_, i) => i + 1));
  });

  it('judges the latest state when another writer got in first (stale cache, expected-revision conflict)', async () => {
    const counters = handler(true);
    await counters.handle('counter-1', { by: 5 }, context);
    // another process appends behind this cache's back
    await store.append('counter-1', toNewEvents([{ type: 'Added', data: { by: 3, total: 8 } }], context, clock), 0n);
    const result = await counters.handle('counter-1', { by: 1 }, context);
    expect(result.state).toEqual({ total: 9 });
    await expect(counters.handle('counter-1', { by: 5, max: 10 }, context)).rejects.toMatchObject({
      code: 'TOO_MUCH',
    });
  });

  it('an idempotency key makes a repeated command append nothing', async () => {
    const keyed = { ...context, idempotencyKey: 'timer-42' };
    const counters = handler();
    const first = await counters.handle('counter-1', { by: 1 }, keyed);
    // the repeat decides again on the new state, but its event ids are the first one's
    const again = await counters.handle('counter-1', { by: 1 }, keyed);
    expect(again.position).toBe(first.position);
    expect(await store.readStream('counter-1')).toHaveLength(1);
  });
});

describe('CommandHandler with a cache another process made stale', () => {
  it('re-checks a refusal on fresh state before answering it', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'parley-cmd2-'));
    const store = await SqliteEventStore.open({ file: path.join(dir, 'events.sqlite'), sync: 'normal' });
    const clock = new ManualClock(Date.parse('2026-01-01T00:00:00Z'));
    const context = { actor: 'test', correlationId: 'c1' };
    try {
      const counters = new Commands(store, clock).for(counter, { cache: { capacity: 2000 } });
      await counters.handle('counter-1', { by: 9 }, context);
      // elsewhere the total was brought back down (a "negative add" appended behind the cache)
      await store.append('counter-1', toNewEvents([{ type: 'Added', data: { by: -8, total: 1 } }], context, clock), 0n);
      // on the cached total (9) this would be refused as over 10; on the real total (1) it is fine
      const result = await counters.handle('counter-1', { by: 5, max: 10 }, context);
      expect(result.state).toEqual({ total: 6 });
    } finally {
      await store.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
