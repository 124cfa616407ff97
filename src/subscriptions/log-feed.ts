import { Inject, Injectable } from '@nestjs/common';
import {
  EVENT_STORE,
  type BatchHandler,
  type EventStore,
  type RecordedEvent,
  type SubscribeOptions,
  type Subscription,
} from '../event-store/event-store.port';
import { START, type Position } from '../event-store/position';
import { FanOut, LIVE_SIZES, type FanOutSizes, type Inbox, type Receiver } from './fan-out';

/** Subscribers behind the head at start within this many events of the furthest behind catch up together. */
const CATCH_UP_SPREAD = 10_000;
/** Subscribers within this many events of the head at start read the live feed from the start. */
const NEAR_HEAD = 10_000;
const DEFAULT_BATCH = 1000;
/**
 * Far behind, larger batches: a read model's cost per transaction (its checkpoint, the pages it
 * writes again, the full-text index's segment and its merges) is paid per 5,000 events, not 1,000.
 * The read stays ahead of the runners by up to two batches, so the apply thread never waits for it.
 * Its events are parsed when first read: the runners on the apply threads send rows and read none
 * of them, and a parse of every event was the event loop's largest cost in a catch-up.
 */
const CATCH_UP_SIZES: FanOutSizes = { read: 2500, take: 5000, highWater: 10_000, parseLazily: true };
/**
 * One reader of the log per process (Marten's high-water agent), for every projection runner and
 * process manager: `subscribeToAll` has the store's contract, but a subscriber at the live feed's
 * position joins it and receives the batches it reads, parsed once, instead of reading the log
 * itself. A subscriber behind it (a runner retrying from its checkpoint after a failure, a new
 * generation building from the start, a process manager that took its lease) reads on its own
 * until its position reaches the live feed's, then joins it. At start, the subscribers far
 * behind (after a restore, or with every read model new) catch up together on a second, shared
 * read, so that a rebuild does not hold back the read models that are up to date.
 */
@Injectable()
export class LogFeed {
  private live: FanOut | null = null;
  private catchUp: FanOut | null = null;
  private pending: SharedSubscription[] = [];
  private started = false;
  private stopped = false;

  constructor(
    @Inject(EVENT_STORE) private readonly store: Pick<EventStore, 'subscribeToAll' | 'headPosition' | 'countAfter'>,
  ) {}

  /** Batches the shared reads have read (tests: one read per commit, whatever the number of subscribers). */
  get reads(): number {
    return (this.live?.reads ?? 0) + (this.catchUp?.reads ?? 0);
  }

  /** How many subscribers the live feed serves (tests). */
  get members(): number {
    return this.live?.size ?? 0;
  }

  subscribeToAll(options: SubscribeOptions, handler: BatchHandler): Subscription {
    const subscription = new SharedSubscription(this, options, handler);
    if (this.stopped || (this.started && !this.live)) subscription.goSolo();
    else if (!this.started) this.pending.push(subscription);
    else this.place(subscription);
    return subscription;
  }

  /**
   * Begins reading, where the subscribers that joined before need it: those near the head share
   * the live feed from the furthest behind of them; those far behind share a catch-up read; the
   * rest read alone until they reach the live feed.
   */
  async start(): Promise<void> {
    if (this.started) return;
    this.started = true;
    const head = await this.store.headPosition();
    const waiting = this.pending.filter((s) => !s.closed);
    this.pending = [];
    const lags = await Promise.all(waiting.map((s) => (s.position >= head ? 0 : this.store.countAfter(s.position))));
    const near = waiting.filter((_, i) => lags[i] !== null && lags[i]! <= NEAR_HEAD);
    const far = waiting.filter((_, i) => !near.includes(waiting[i]));
    let from = head;
    for (const s of near) if (s.position < from) from = s.position;
    this.live = this.fanOut(from, () => undefined, LIVE_SIZES);
    for (const s of near) s.join(this.live);
    const farLags = far.map((s) => lags[waiting.indexOf(s)]);
    const furthest = Math.max(0, ...farLags.map((lag) => lag ?? 0));
    const together = far.filter((_, i) => farLags[i] !== null && farLags[i]! >= furthest - CATCH_UP_SPREAD);
    if (together.length > 1) {
      let after = head;
      for (const s of together) if (s.position < after) after = s.position;
      const catchUp = this.fanOut(
        after,
        () => {
          // every subscriber moved on to the live feed (or stopped): this read has no use left
          if (this.catchUp === catchUp) this.catchUp = null;
          void catchUp.stop();
        },
        CATCH_UP_SIZES,
      );
      this.catchUp = catchUp;
      for (const s of together) s.join(catchUp);
      catchUp.start();
    }
    for (const s of far) if (!together.includes(s) || together.length <= 1) s.goSolo();
    this.live.start();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    await Promise.all([this.live?.stop(), this.catchUp?.stop()]);
  }

  /** After start: joins the live feed where it stands, else reads alone until it gets there. */
  private place(subscription: SharedSubscription): void {
    const live = this.live!;
    if (live.failed) {
      // the live read failed (the store did): a new one starts where this subscriber stands
      this.live = this.fanOut(subscription.position, () => undefined, LIVE_SIZES);
      subscription.join(this.live);
      this.live.start();
    } else if (subscription.position >= live.readThrough) subscription.join(live);
    else subscription.goSolo();
  }

  /** Where a subscriber reading alone or catching up may move to, having reached `position`. */
  liveAt(position: Position): FanOut | null {
    const live = this.live;
    return live && !live.failed && !this.stopped && position >= live.readThrough ? live : null;
  }

  soloSubscription(options: SubscribeOptions, handler: BatchHandler): Subscription {
    return (this.store as Pick<EventStore, 'subscribeToAll'>).subscribeToAll(options, handler);
  }

  private fanOut(after: Position, onEmpty: () => void, sizes: FanOutSizes): FanOut {
    return new FanOut(this.store, after, onEmpty, sizes);
  }
}

/**
 * A subscriber's handle, whichever read serves it (the live feed, the catch-up read, or its own
 * subscription while behind): batches reach its handler one at a time, in log order, each event
 * once (events at or before what it was last given are dropped, so moving between reads never
 * repeats nor skips one).
 */
class SharedSubscription implements Subscription, Receiver {
  readonly done: Promise<void>;
  readonly maxBatchSize: number;
  position: Position;
  closed = false;
  private inbox: Inbox | null = null;
  private fanOut: FanOut | null = null;
  private solo: Subscription | null = null;
  private running: Promise<void> = Promise.resolve();
  private settle!: { resolve(): void; reject(error: unknown): void };

  constructor(
    private readonly feed: LogFeed,
    private readonly options: SubscribeOptions,
    private readonly handler: BatchHandler,
  ) {
    this.position = options.after ?? START;
    this.maxBatchSize = options.maxBatchSize ?? DEFAULT_BATCH;
    this.done = new Promise<void>((resolve, reject) => (this.settle = { resolve, reject }));
    // a caller that never looks at `done` must not see an unhandled rejection
    this.done.catch(() => undefined);
  }

  wakes(type: string): boolean {
    const wakeFor = this.options.wakeFor ?? this.options.filterTypes;
    return wakeFor === undefined || wakeFor(type);
  }

  join(fanOut: FanOut): void {
    if (this.closed) return;
    this.fanOut = fanOut;
    this.inbox = fanOut.add(this, this.position);
  }

  /** Reads the log on its own from its position, until it reaches the live feed. */
  goSolo(): void {
    if (this.closed) return;
    const solo = this.feed.soloSubscription(
      {
        after: this.position,
        maxBatchSize: this.maxBatchSize,
        wakeFor: this.options.wakeFor,
        filterTypes: this.options.filterTypes,
      },
      (batch) => this.receive(batch),
    );
    this.solo = solo;
    solo.done.catch((error: unknown) => {
      if (this.solo === solo) this.fail(error);
    });
  }

  /** One batch from whichever read serves it; then, if it reached the live feed, it moves there. */
  receive(batch: RecordedEvent[]): Promise<void> {
    const run = this.running.then(() => this.deliver(batch));
    this.running = run.catch(() => undefined);
    return run;
  }

  failed(error: unknown): void {
    this.fail(error);
  }

  nudge(): void {
    if (this.solo) this.solo.nudge();
    else if (this.fanOut) {
      this.fanOut.nudge();
      void this.inbox?.pump();
    }
  }

  async stop(): Promise<void> {
    if (this.closed) return this.done.catch(() => undefined);
    this.closed = true;
    const solo = this.solo;
    this.solo = null;
    this.leaveFanOut();
    await solo?.stop();
    await this.running;
    this.settle.resolve();
  }

  private async deliver(batch: RecordedEvent[]): Promise<void> {
    if (this.closed) return;
    const last = batch[batch.length - 1].position;
    if (last <= this.position) return;
    let events = batch[0].position > this.position ? batch : batch.filter((event) => event.position > this.position);
    const filter = this.options.filterTypes;
    if (filter && this.fanOut) events = events.filter((event) => filter(event.type));
    if (events.length > 0) await this.handler(events);
    this.position = last;
    if (this.fanOut !== null && this.feed.liveAt(this.position) === this.fanOut) return;
    const live = this.feed.liveAt(this.position);
    if (live && !this.closed) this.moveTo(live);
  }

  /** Leaves the catch-up read or its own subscription for the live feed (between two batches). */
  private moveTo(live: FanOut): void {
    const solo = this.solo;
    this.solo = null;
    // stopped without waiting: this runs inside its last batch; the loop ends once it returns
    void solo?.stop();
    this.leaveFanOut();
    this.join(live);
  }

  private leaveFanOut(): void {
    if (this.fanOut && this.inbox) this.fanOut.remove(this.inbox);
    this.fanOut = null;
    this.inbox = null;
  }

  private fail(error: unknown): void {
    if (this.closed) return;
    this.closed = true;
    const solo = this.solo;
    this.solo = null;
    void solo?.stop();
    this.leaveFanOut();
    this.settle.reject(error);
  }
}
