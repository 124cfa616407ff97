/**
 * Commits of no type a sleeping subscription wakes for are delivered to it this late at most...
 * Under load most subscriptions woke at every commit only to move their position, and those
 * wake-ups were a large share of what the event loop allocated (bench/README.md, "Lazy wakes").
 * Lazily, such a subscription wakes about 20 times a second and reads what gathered in one batch.
 */
const LAZY_WAKE_MS = 50;
/**
 * ...or once this many events have gathered: a lazy subscriber is never far behind. A read model's
 * lag (/readyz, READY_MAX_LAG_EVENTS) counts them: the store is given half that bound when it is lower.
 */
const LAZY_WAKE_EVENTS = 500;

/** The gathered-events bound for a server whose /readyz allows `readyMaxLagEvents` (0: every commit wakes every subscription). */
export function lazyWakeEventsWithin(readyMaxLagEvents: number | undefined): number {
  return readyMaxLagEvents === undefined
    ? LAZY_WAKE_EVENTS
    : Math.min(LAZY_WAKE_EVENTS, Math.floor(readyMaxLagEvents / 2));
}

interface Waiter {
  wake(): void;
  wakeFor: ((type: string) => boolean) | undefined;
  /** events committed since it slept, none of a type it wakes for */
  gathered: number;
}

/**
 * The subscriptions asleep until the log grows. A commit wakes at once those without `wakeFor`
 * and those it holds a wanted type for; the others, whose handlers would find nothing to do in
 * it (a read model of accounts, while conversations are written), wake when LAZY_WAKE_MS have
 * passed or LAZY_WAKE_EVENTS have gathered, or when told (their consumer awaits a position).
 */
export class AppendWaiters {
  private readonly asleep = new Set<Waiter>();
  private lazyTimer: NodeJS.Timeout | null = null;

  constructor(
    private readonly lazyMs = LAZY_WAKE_MS,
    private readonly lazyEvents = LAZY_WAKE_EVENTS,
  ) {}

  get size(): number {
    return this.asleep.size;
  }

  /** Resolves when a commit (or wakeAll) wakes it; `cancel` wakes it now. */
  wait(wakeFor?: (type: string) => boolean): { promise: Promise<void>; cancel(): void } {
    let resolve!: () => void;
    const promise = new Promise<void>((r) => (resolve = r));
    const waiter: Waiter = {
      wakeFor,
      gathered: 0,
      wake: () => {
        this.asleep.delete(waiter);
        resolve();
      },
    };
    this.asleep.add(waiter);
    return { promise, cancel: waiter.wake };
  }

  /** A commit of this process stored events of these types (one entry per event, in order). */
  committed(types: readonly string[]): void {
    let lazy = false;
    for (const waiter of [...this.asleep]) {
      if (waiter.wakeFor === undefined || types.some((type) => wants(waiter.wakeFor!, type))) waiter.wake();
      else if ((waiter.gathered += types.length) >= this.lazyEvents) waiter.wake();
      else if (waiter.gathered > 0) lazy = true;
    }
    if (lazy && this.lazyTimer === null) {
      this.lazyTimer = setTimeout(() => this.wakeGathered(), this.lazyMs);
      // a process with nothing else to do need not stay up for a lazy delivery
      this.lazyTimer.unref();
    }
  }

  /** The log grew in ways this process cannot see the types of (another process's appends), or it closes. */
  wakeAll(): void {
    this.clearTimer();
    for (const waiter of [...this.asleep]) waiter.wake();
  }

  private wakeGathered(): void {
    this.lazyTimer = null;
    for (const waiter of [...this.asleep]) if (waiter.gathered > 0) waiter.wake();
  }

  private clearTimer(): void {
    if (this.lazyTimer) clearTimeout(this.lazyTimer);
    this.lazyTimer = null;
  }
}

/**
 * A hint runs inside the commit's settling (every append of the batch resolved, the other waiters
 * not yet woken): one that throws must not break that. It wakes its subscription, whose own read
 * then meets the same predicate and fails that subscription alone, as a throwing filter always did.
 */
function wants(wakeFor: (type: string) => boolean, type: string): boolean {
  try {
    return wakeFor(type);
  } catch {
    return true;
  }
}
