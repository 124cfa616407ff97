import type { Position } from '../event-store/position';

interface Waiter {
  target: Position;
  resolve(): void;
}

/**
 * Requests waiting until one subscriber (a read model, a process manager) has passed a position
 * of the log: read-your-writes. Apart from the loops so that every way a subscriber moves (a batch
 * applied or followed, a generation activated or switched to) releases waiters by the one rule
 * `reached`.
 */
export class CatchUpWaiters {
  private readonly waiters = new Set<Waiter>();

  constructor(private readonly reached: (target: Position) => boolean) {}

  /** Someone waits: the apply loop applies what the log holds now instead of gathering more. */
  get waiting(): boolean {
    return this.waiters.size > 0;
  }

  wait(target: Position): { promise: Promise<void>; cancel(): void } {
    let waiter!: Waiter;
    const promise = new Promise<void>((resolve) => (waiter = { target, resolve }));
    this.waiters.add(waiter);
    return { promise, cancel: () => this.waiters.delete(waiter) };
  }

  /** Releases every waiter whose position the read model has reached. */
  release(): void {
    if (this.waiters.size === 0) return;
    for (const waiter of [...this.waiters]) {
      if (this.reached(waiter.target)) {
        this.waiters.delete(waiter);
        waiter.resolve();
      }
    }
  }
}
