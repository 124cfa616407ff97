/**
 * The subscription loop against a fake `$all` source. The fake stands in for an EventStoreDB
 * server, which cannot run on this machine (no Docker, no package): it holds a log, serves
 * catch-up subscriptions in chunks, and can drop a subscription mid-way the way a server restart
 * or a network failure does. The real source (client-feed-source.ts) only differs in where the
 * events come from.
 */
import { AccessDeniedError, UnavailableError } from '@kurrent/kurrentdb-client';
import { newTestEvent } from '../event-store.contract';
import type { RecordedEvent } from '../event-store.port';
import { START, comparePositions, positionOf, type Position } from '../position';
import { FeedClosedError, FeedDroppedError, type AllFeed, type AllFeedSource } from './all-feed';
import { ResubscribingSubscription, type Pause, type ResubscribeSettings } from './resubscribing-subscription';

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

async function waitUntil(condition: () => boolean, what: string, timeoutMs = 3000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for: ${what}`);
    await sleep(1);
  }
}

class FakeServer implements AllFeedSource {
  readonly log: RecordedEvent[] = [];
  /** Where each subscription started: the resubscribe positions. */
  readonly opens: Position[] = [];
  /** Every pull by the loop, to see back-pressure. */
  pulls = 0;
  /** Largest chunk the server sends at once. */
  chunk = 3;
  /** Drop each of the next subscriptions after it delivered this many events (0: at once). */
  dropPlan: number[] = [];
  /** The error a drop reports. */
  dropWith: () => unknown = () => new UnavailableError();
  /** A faulty server that also sends the event at the start position (the loop must not repeat it). */
  inclusiveStart = false;
  private waiters = new Set<() => void>();
  private commit = 100n;

  append(type = 'TestEvent', streamId = 'order-1'): RecordedEvent {
    this.commit += 64n;
    const e = newTestEvent(type);
    const event: RecordedEvent = {
      ...e,
      streamId,
      revision: BigInt(this.log.length),
      position: positionOf(this.commit),
    };
    this.log.push(event);
    for (const wake of [...this.waiters]) wake();
    return event;
  }

  open(after: Position): AllFeed {
    this.opens.push(after);
    const dropAfter = this.dropPlan.shift();
    let cursor = this.log.findIndex((e) => comparePositions(e.position, after) >= (this.inclusiveStart ? 0 : 1));
    let delivered = 0;
    let closed = false;
    let wake: (() => void) | null = null;
    return {
      nextBatch: async (max: number) => {
        this.pulls++;
        for (;;) {
          if (closed) throw new FeedClosedError();
          if (dropAfter !== undefined && delivered >= dropAfter) throw new FeedDroppedError(this.dropWith());
          if (cursor === -1) cursor = this.log.findIndex((e) => comparePositions(e.position, after) === 1);
          if (cursor !== -1 && cursor < this.log.length) {
            let n = Math.min(max, this.chunk, this.log.length - cursor);
            if (dropAfter !== undefined) n = Math.min(n, dropAfter - delivered);
            const batch = this.log.slice(cursor, cursor + n);
            cursor += n;
            delivered += n;
            return batch;
          }
          await new Promise<void>((resolve) => {
            wake = resolve;
            this.waiters.add(resolve);
          });
          this.waiters.delete(wake!);
        }
      },
      async close() {
        closed = true;
        wake?.();
      },
    };
  }
}

function logger() {
  const lines: Array<{ level: 'warn' | 'info'; fields: Record<string, unknown>; message: string }> = [];
  return {
    lines,
    warn: (fields: object, message: string) =>
      lines.push({ level: 'warn', fields: fields as Record<string, unknown>, message }),
    info: (fields: object, message: string) =>
      lines.push({ level: 'info', fields: fields as Record<string, unknown>, message }),
  };
}

/** Pauses that return at once and remember how long they were asked to be. */
function instantPauses() {
  const delays: number[] = [];
  return {
    delays,
    pause: (ms: number): Pause => (delays.push(ms), { promise: Promise.resolve(), cancel: () => undefined }),
  };
}

function settings(overrides: Partial<ResubscribeSettings> = {}) {
  const log = logger();
  const pauses = instantPauses();
  return {
    log,
    pauses,
    settings: {
      logger: log,
      pause: pauses.pause,
      random: () => 1,
      backoff: { initialMs: 10, maxMs: 80, factor: 2 },
      ...overrides,
    } as ResubscribeSettings,
  };
}

function collect(
  server: FakeServer,
  options: ConstructorParameters<typeof ResubscribingSubscription>[1],
  s: ResubscribeSettings,
) {
  const events: RecordedEvent[] = [];
  const batches: RecordedEvent[][] = [];
  const subscription = new ResubscribingSubscription(
    server,
    options,
    (batch) => {
      batches.push(batch);
      events.push(...batch);
    },
    s,
  );
  subscription.done.catch(() => undefined);
  return { subscription, events, batches };
}

const ids = (events: RecordedEvent[]) => events.map((e) => e.id);

describe('ResubscribingSubscription (fake server)', () => {
  it('delivers existing then live events in log order, in batches of at most maxBatchSize', async () => {
    const server = new FakeServer();
    for (let i = 0; i < 7; i++) server.append();
    const { settings: s } = settings();
    const c = collect(server, { maxBatchSize: 2 }, s);
    await waitUntil(() => c.events.length === 7, 'the existing events');
    server.append();
    server.append();
    await waitUntil(() => c.events.length === 9, 'the live events');
    expect(ids(c.events)).toEqual(ids(server.log));
    expect(c.batches.every((b) => b.length >= 1 && b.length <= 2)).toBe(true);
    expect(server.opens).toEqual([START]);
    await c.subscription.stop();
  });

  it('after a drop mid-way, resubscribes after the last delivered event: nothing skipped, nothing repeated', async () => {
    const server = new FakeServer();
    for (let i = 0; i < 10; i++) server.append();
    server.dropPlan = [4, 3]; // the first subscription drops after 4 events, the second after 3 more
    const { settings: s, log } = settings();
    const c = collect(server, { maxBatchSize: 5 }, s);
    await waitUntil(() => c.events.length === 10, 'every event across the drops');
    server.append();
    await waitUntil(() => c.events.length === 11, 'a live event after the drops');
    await sleep(5);
    expect(ids(c.events)).toEqual(ids(server.log));
    expect(server.opens).toEqual([START, server.log[3].position, server.log[6].position]);
    const warnings = log.lines.filter((l) => l.level === 'warn');
    expect(warnings).toHaveLength(2);
    expect(warnings[0].fields).toMatchObject({ after: server.log[3].position, attempt: 1 });
    expect(warnings[0].fields.err).toBeInstanceOf(UnavailableError);
    expect(log.lines.some((l) => l.level === 'info' && /resumed/.test(l.message))).toBe(true);
    await c.subscription.stop();
  });

  it('never repeats an event a server sends again from the start position', async () => {
    const server = new FakeServer();
    server.inclusiveStart = true;
    for (let i = 0; i < 6; i++) server.append();
    server.dropPlan = [2, 2];
    const { settings: s } = settings();
    const c = collect(server, { after: server.log[0].position }, s);
    await waitUntil(() => c.events.length === 5, 'the events after the start');
    await sleep(5);
    expect(ids(c.events)).toEqual(ids(server.log.slice(1)));
    await c.subscription.stop();
  });

  it('keeps system events out, and the position still moves past them and past filtered types', async () => {
    const server = new FakeServer();
    const kept1 = server.append('Keep.A');
    server.append('$statsCollected', '$stats-127.0.0.1:2113');
    server.append('Drop.B');
    server.append('$metadata', '$$order-1');
    const lastFiltered = server.append('Drop.C');
    server.dropPlan = [5];
    const { settings: s } = settings();
    const c = collect(server, { filterTypes: (type) => type.startsWith('Keep.') }, s);
    await waitUntil(() => server.opens.length === 2, 'the resubscription');
    // The resubscription starts after the last handled event, a filtered one: nothing is read twice.
    expect(server.opens[1]).toBe(lastFiltered.position);
    const kept2 = server.append('Keep.D');
    await waitUntil(() => c.events.length === 2, 'the kept events');
    expect(ids(c.events)).toEqual([kept1.id, kept2.id]);
    await c.subscription.stop();
  });

  it('backs off exponentially between failed resubscriptions, bounded by maxMs, and starts over after a success', async () => {
    const server = new FakeServer();
    server.append();
    server.dropPlan = [0, 0, 0, 0, 0, 0, 0, 1, 0];
    const { settings: s, pauses, log } = settings();
    const c = collect(server, {}, s);
    await waitUntil(() => c.events.length === 1 && server.opens.length === 10, 'the resubscriptions');
    // 7 drops in a row; then a subscription that delivers an event before it drops: the count starts over.
    expect(pauses.delays).toEqual([10, 20, 40, 80, 80, 80, 80, 10, 20]);
    expect(log.lines.filter((l) => l.level === 'warn').map((l) => l.fields.attempt)).toEqual([
      1, 2, 3, 4, 5, 6, 7, 1, 2,
    ]);
    expect(server.opens.every((p) => p === START || p === server.log[0].position)).toBe(true);
    await c.subscription.stop();
  });

  it('uses real timers by default and never waits past maxMs', async () => {
    const server = new FakeServer();
    server.append();
    server.dropPlan = [0, 0, 0];
    const log = logger();
    const started = Date.now();
    const c = collect(server, {}, { logger: log, backoff: { initialMs: 5, maxMs: 15, factor: 10 } });
    await waitUntil(() => c.events.length === 1, 'the event after three drops');
    expect(Date.now() - started).toBeLessThan(1000);
    expect(log.lines.filter((l) => l.level === 'warn').every((l) => (l.fields.delayMs as number) <= 15)).toBe(true);
    await c.subscription.stop();
  });

  it('a permanent refusal (access denied) ends the subscription instead of retrying', async () => {
    const server = new FakeServer();
    server.append();
    server.dropPlan = [0];
    server.dropWith = () => new AccessDeniedError();
    const { settings: s } = settings();
    const c = collect(server, {}, s);
    await expect(c.subscription.done).rejects.toBeInstanceOf(FeedDroppedError);
    expect(server.opens).toHaveLength(1);
  });

  it('back-pressure: no pull and no batch while the handler promise is pending', async () => {
    const server = new FakeServer();
    for (let i = 0; i < 6; i++) server.append();
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const batches: RecordedEvent[][] = [];
    const { settings: s } = settings();
    const subscription = new ResubscribingSubscription(
      server,
      { maxBatchSize: 2 },
      async (batch) => {
        batches.push(batch);
        if (batches.length === 1) await gate;
      },
      s,
    );
    await waitUntil(() => batches.length === 1, 'the first batch');
    const pulls = server.pulls;
    await sleep(30);
    expect(batches).toHaveLength(1);
    expect(server.pulls).toBe(pulls);
    release();
    await waitUntil(() => batches.flat().length === 6, 'the rest');
    await subscription.stop();
  });

  it('stop() while a handler runs resolves only once it settles, and nothing more is delivered, even across a drop', async () => {
    const server = new FakeServer();
    for (let i = 0; i < 4; i++) server.append();
    server.dropPlan = [1];
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const batches: RecordedEvent[][] = [];
    let running = false;
    const { settings: s } = settings();
    const subscription = new ResubscribingSubscription(
      server,
      { maxBatchSize: 1 },
      async (batch) => {
        batches.push(batch);
        running = true;
        await gate;
        running = false;
      },
      s,
    );
    await waitUntil(() => batches.length === 1, 'the first batch');
    let stopped = false;
    const stopping = subscription.stop().then(() => {
      stopped = true;
      expect(running).toBe(false);
    });
    await sleep(20);
    expect(stopped).toBe(false);
    release();
    await stopping;
    await subscription.done;
    server.append();
    await sleep(20);
    expect(batches).toHaveLength(1);
    expect(server.opens).toHaveLength(1);
  });

  it('stop() during a backoff pause ends at once', async () => {
    const server = new FakeServer();
    server.dropPlan = [0];
    let cancelled = false;
    const { settings: s } = settings({
      pause: () => {
        let cancel!: () => void;
        const promise = new Promise<void>((resolve) => (cancel = () => ((cancelled = true), resolve())));
        return { promise, cancel };
      },
    });
    const subscription = new ResubscribingSubscription(server, {}, () => undefined, s);
    await waitUntil(() => server.opens.length === 1, 'the first subscription');
    await sleep(5);
    await subscription.stop();
    await subscription.done;
    expect(cancelled).toBe(true);
    expect(server.opens).toHaveLength(1);
  });

  it('stop() while waiting for live events ends the pull and resolves done', async () => {
    const server = new FakeServer();
    const { settings: s } = settings();
    const c = collect(server, {}, s);
    await waitUntil(() => server.pulls === 1, 'the first pull');
    await c.subscription.stop();
    await expect(c.subscription.done).resolves.toBeUndefined();
  });

  it('a handler failure rejects done and is never retried', async () => {
    const server = new FakeServer();
    server.append();
    server.append();
    let calls = 0;
    const { settings: s } = settings();
    const subscription = new ResubscribingSubscription(
      server,
      { maxBatchSize: 1 },
      () => {
        calls++;
        throw new Error('handler failed');
      },
      s,
    );
    await expect(subscription.done).rejects.toThrow('handler failed');
    expect(calls).toBe(1);
    expect(server.opens).toHaveLength(1);
  });
});
