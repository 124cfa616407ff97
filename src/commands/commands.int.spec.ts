import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { SqliteEventStore } from '../event-store/sqlite/sqlite-event-store';
import { WrongExpectedRevisionError } from '../event-store/errors';
import { ManualClock } from '../platform/clock/clock';
import { Commands } from './commands';
import type { Decider, DomainEvent } from './decider';
import { patient } from '../../test/support/patience';

/** `promise`, or a failure once `ms` have passed without it settling. */
function within<T>(ms: number, promise: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`not settled within ${ms} ms`)), ms);
  });
  return Promise.race([promise, late]).finally(() => clearTimeout(timer));
}

type Added = DomainEvent<'Added', { by: number; total: number }>;
type Noted = DomainEvent<'Noted', { note: string }>;

/** Adds to a total. */
const counter: Decider<{ total: number }, { by: number }, Added> = {
  initialState: () => ({ total: 0 }),
  evolve: (state, event) => (event.type === 'Added' ? { total: event.data.total } : state),
  decide: (command, state) => [{ type: 'Added', data: { by: command.by, total: state.total + command.by } }],
};

/** Another decider on the same streams: to see that the queue is per stream, not per handler. */
const notes: Decider<null, { note: string }, Noted> = {
  initialState: () => null,
  evolve: (state) => state,
  decide: (command) => [{ type: 'Noted', data: { note: command.note } }],
};

describe('Commands: a handler per stream family', () => {
  let dir: string;
  let store: SqliteEventStore;
  const clock = new ManualClock(Date.parse('2026-01-01T00:00:00Z'));
  const context = { actor: 'test', correlationId: 'c1' };

  beforeEach(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'parley-commands-'));
    store = await SqliteEventStore.open({ file: path.join(dir, 'events.sqlite'), sync: 'normal' });
  });
  afterEach(async () => {
    jest.restoreAllMocks();
    await store.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  /** The store's appends refused for a stale expected revision (the real store's, counted on the way out). */
  function countConflicts(): { count: number } {
    const conflicts = { count: 0 };
    const append = store.append.bind(store);
    jest.spyOn(store, 'append').mockImplementation(async (...args) => {
      try {
        return await append(...args);
      } catch (error) {
        if (error instanceof WrongExpectedRevisionError) conflicts.count++;
        throw error;
      }
    });
    return conflicts;
  }

  it('orders commands per stream across handlers: they run in arrival order, none conflicts', async () => {
    const commands = new Commands(store, clock);
    const counters = commands.for(counter);
    const notebook = commands.for(notes);
    const conflicts = countConflicts();
    const sent: Promise<unknown>[] = [];
    for (let i = 1; i <= 10; i++) {
      sent.push(counters.handle('shared-1', { by: 1 }, context));
      sent.push(notebook.handle('shared-1', { note: `n${i}` }, context));
    }
    await Promise.all(sent);
    const events = await store.readStream('shared-1');
    expect(
      events.map((e) => (e.type === 'Added' ? `+${(e.data as Added['data']).total}` : (e.data as Noted['data']).note)),
    ).toEqual(Array.from({ length: 10 }, (_, i) => [`+${i + 1}`, `n${i + 1}`]).flat());
    expect(conflicts.count).toBe(0);
  });

  it("shares a family's cache between its callers: the second caller's command reads nothing and appends first time", async () => {
    const counters = new Commands(store, clock).for(counter, { cache: { capacity: 10 } });
    // two services writing one family hold the one handler
    const api = { add: (by: number) => counters.handle('counter-1', { by }, context) };
    const timers = { add: (by: number) => counters.handle('counter-1', { by }, context) };
    const reads = jest.spyOn(store, 'readStream');
    const conflicts = countConflicts();
    await api.add(2);
    expect(reads).toHaveBeenCalledTimes(1);
    const result = await timers.add(3);
    expect(result.state).toEqual({ total: 5 });
    expect(reads).toHaveBeenCalledTimes(1);
    expect(conflicts.count).toBe(0);
    // a reader of the family reads through the same cache: only what came after it
    expect(await counters.peek('counter-1')).toEqual({ total: 5 });
    expect(reads).toHaveBeenCalledTimes(1);
  });

  it('refuses a second handler for a family: its callers must share the first', () => {
    const commands = new Commands(store, clock);
    commands.for(counter, { cache: { capacity: 10 } });
    expect(() => commands.for(counter)).toThrow(/already has its command handler/);
    // another app (another Commands) makes its own
    expect(() => new Commands(store, clock).for(counter)).not.toThrow();
  });

  it('keeps no module-global state: two Commands do not share a queue', async () => {
    const mine = new Commands(store, clock).for(counter);
    const theirs = new Commands(store, clock).for(counter);
    // hold the first command in its read of the stream
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const read = store.readStream.bind(store);
    jest.spyOn(store, 'readStream').mockImplementationOnce(async (...args) => {
      await held;
      return read(...args);
    });
    let firstDone = false;
    const first = mine.handle('counter-1', { by: 1 }, context).then((result) => {
      firstDone = true;
      return result;
    });
    // were the queue shared, this one would wait behind the held command for ever
    const second = await within(patient(2000), theirs.handle('counter-1', { by: 10 }, context));
    expect(second.state).toEqual({ total: 10 });
    expect(firstDone).toBe(false);
    release();
    expect((await first).state).toEqual({ total: 11 });
  });
});
