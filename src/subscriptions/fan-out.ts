import type { EventStore, RecordedEvent, Subscription } from '../event-store/event-store.port';
import type { Position } from '../event-store/position';

/** What a fan-out hands its batches to (a SharedSubscription of log-feed.ts). */
export interface Receiver {
  readonly maxBatchSize: number;
  /** The types whose arrival it acts on; batches of none of them reach it lazily. */
  wakes(type: string): boolean;
  /** One batch, strictly after the previous; the next waits for this promise. */
  receive(batch: RecordedEvent[]): Promise<void>;
  /** Its receive threw: it has left the fan-out. */
  failed(error: unknown): void;
}

/** How a fan-out reads and hands out: the live feed's, unless told otherwise. */
export interface FanOutSizes {
  /** events read at once */
  read: number;
  /** a receiver takes at least this many of what gathered in its inbox at once (its own batch size if larger) */
  take: number;
  /** a receiver this many events behind holds the fan-out's reads back: memory stays bounded */
  highWater: number;
  /** events parsed when a receiver first reads them (SubscribeOptions.parseLazily) */
  parseLazily?: boolean;
}

export const LIVE_SIZES: FanOutSizes = { read: 1000, take: 0, highWater: 5000 };
/** Batches of no type a receiver wakes for reach it this late at most, or once this many gathered (append-waiters.ts). */
const LAZY_MS = 50;
const LAZY_EVENTS = 500;

/**
 * One subscription to the log, its batches handed to every receiver: the log is read and parsed
 * once, whatever the number of receivers. Each receiver has an inbox and takes what gathered in it
 * when it is ready, so one that pauses (a read model letting a batch gather) neither holds the
 * others back nor misses anything: its next batch is larger. The read waits while any inbox is
 * past HIGH_WATER.
 */
export class FanOut {
  /** The position of the last event read and handed out; where a receiver may join. */
  readThrough: Position;
  /** Batches read from the log (tests count them). */
  reads = 0;
  failed = false;
  private subscription: Subscription | null = null;
  private readonly inboxes = new Set<Inbox>();
  private readonly wanted = new Map<string, boolean>();
  private room: (() => void) | null = null;
  private lazyTimer: NodeJS.Timeout | null = null;

  constructor(
    private readonly store: Pick<EventStore, 'subscribeToAll'>,
    after: Position,
    private readonly onEmpty: () => void = () => undefined,
    readonly sizes: FanOutSizes = LIVE_SIZES,
  ) {
    this.readThrough = after;
  }

  get size(): number {
    return this.inboxes.size;
  }

  start(): void {
    const subscription = this.store.subscribeToAll(
      {
        after: this.readThrough,
        maxBatchSize: this.sizes.read,
        wakeFor: (type) => this.wakes(type),
        parseLazily: this.sizes.parseLazily,
      },
      (batch) => this.onBatch(batch),
    );
    this.subscription = subscription;
    subscription.done.catch((error: unknown) => {
      // the store failed: every receiver retries on its own from its checkpoint
      this.failed = true;
      for (const inbox of [...this.inboxes]) this.drop(inbox, error);
    });
  }

  /** Hands `receiver` every event after `after` this fan-out reads from now on. */
  add(receiver: Receiver, after: Position): Inbox {
    const inbox = new Inbox(this, receiver, after);
    this.inboxes.add(inbox);
    this.wanted.clear();
    return inbox;
  }

  remove(inbox: Inbox): void {
    if (!this.inboxes.delete(inbox)) return;
    inbox.removed = true;
    this.wanted.clear();
    this.drained();
    if (this.inboxes.size === 0) this.onEmpty();
  }

  /** Reads what the log holds now, not lazily: someone waits. */
  nudge(): void {
    this.subscription?.nudge();
  }

  async stop(): Promise<void> {
    if (this.lazyTimer) clearTimeout(this.lazyTimer);
    this.room?.();
    const subscription = this.subscription;
    this.subscription = null;
    await subscription?.stop();
  }

  /** An inbox took from its queue: the read may go on. */
  drained(): void {
    if (this.room && ![...this.inboxes].some((inbox) => inbox.queued >= this.sizes.highWater)) {
      const room = this.room;
      this.room = null;
      room();
    }
  }

  lazily(): void {
    this.lazyTimer ??= setTimeout(() => {
      this.lazyTimer = null;
      for (const inbox of this.inboxes) if (inbox.queued > 0) void inbox.pump();
    }, LAZY_MS);
  }

  private drop(inbox: Inbox, error: unknown): void {
    this.remove(inbox);
    inbox.receiver.failed(error);
  }

  failedIn(inbox: Inbox, error: unknown): void {
    this.drop(inbox, error);
  }

  /** Any receiver wakes for it: the store wakes this subscription at once for such a commit. */
  private wakes(type: string): boolean {
    let wanted = this.wanted.get(type);
    if (wanted === undefined) {
      wanted = [...this.inboxes].some((inbox) => inbox.receiver.wakes(type));
      this.wanted.set(type, wanted);
    }
    return wanted;
  }

  private async onBatch(batch: RecordedEvent[]): Promise<void> {
    this.reads++;
    this.readThrough = batch[batch.length - 1].position;
    for (const inbox of [...this.inboxes]) inbox.push(batch);
    while (this.subscription && [...this.inboxes].some((inbox) => inbox.queued >= this.sizes.highWater))
      await new Promise<void>((resolve) => (this.room = resolve));
  }
}

/** One receiver's queue of batches, taken in order, as many at once as its batch size allows. */
export class Inbox {
  queued = 0;
  removed = false;
  private queue: RecordedEvent[][] = [];
  private running = false;

  constructor(
    readonly fanOut: FanOut,
    readonly receiver: Receiver,
    /** events at or before this were delivered elsewhere (or are before the receiver's checkpoint) */
    private after: Position,
  ) {}

  push(batch: RecordedEvent[]): void {
    if (this.removed || batch[batch.length - 1].position <= this.after) return;
    const fresh = batch[0].position > this.after ? batch : batch.filter((event) => event.position > this.after);
    this.after = fresh[fresh.length - 1].position;
    this.queue.push(fresh);
    this.queued += fresh.length;
    if (this.queued >= LAZY_EVENTS || fresh.some((event) => this.receiver.wakes(event.type))) void this.pump();
    else this.fanOut.lazily();
  }

  /** Delivers what gathered, now. */
  async pump(): Promise<void> {
    if (this.running) return;
    this.running = true;
    try {
      while (this.queue.length > 0 && !this.removed) {
        const batch = this.take();
        await this.receiver.receive(batch);
        this.fanOut.drained();
      }
    } catch (error) {
      this.fanOut.failedIn(this, error);
    } finally {
      this.running = false;
    }
  }

  /** The queued batches joined, up to the receiver's batch size (a larger batch is split). */
  private take(): RecordedEvent[] {
    const max = Math.max(this.receiver.maxBatchSize, this.fanOut.sizes.take);
    let out: RecordedEvent[] = [];
    while (this.queue.length > 0 && out.length < max) {
      const next = this.queue[0];
      const room = max - out.length;
      if (next.length <= room) {
        out = out.length === 0 ? next : out.concat(next);
        this.queue.shift();
      } else {
        out = out.concat(next.slice(0, room));
        this.queue[0] = next.slice(room);
      }
    }
    this.queued -= out.length;
    return out;
  }
}
