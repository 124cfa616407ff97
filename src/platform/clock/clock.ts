/** The one source of time. Deciders never read it: the command carries `now`. */
export abstract class Clock {
  abstract now(): Date;
  /** Called after time jumps (the manual clock); timers re-check what is due. */
  abstract onAdvance(listener: () => void): () => void;
  nowIso(): string {
    return this.now().toISOString();
  }
  /** Milliseconds since the epoch, without allocating: for hot-path comparisons. */
  nowMs(): number {
    return this.now().getTime();
  }
}

export class SystemClock extends Clock {
  /** the last ISO string made, and the millisecond it is for */
  private isoAt = NaN;
  private iso = '';

  now(): Date {
    return new Date();
  }
  override nowMs(): number {
    return Date.now();
  }
  /** A web chat message asks for the time a dozen times within one millisecond: formatted once. */
  override nowIso(): string {
    const ms = Date.now();
    if (ms !== this.isoAt) {
      this.iso = new Date(ms).toISOString();
      this.isoAt = ms;
    }
    return this.iso;
  }
  onAdvance(): () => void {
    return () => undefined;
  }
}

/** PARLEY_TEST_CLOCK=1: time stands still until an operator moves it. */
export class ManualClock extends Clock {
  private listeners = new Set<() => void>();
  constructor(private current: number = Date.now()) {
    super();
  }
  now(): Date {
    return new Date(this.current);
  }
  advance(seconds: number): Date {
    if (!Number.isFinite(seconds) || seconds < 0) throw new RangeError('the clock only moves forwards');
    this.current += Math.round(seconds * 1000);
    for (const listener of [...this.listeners]) listener();
    return this.now();
  }
  onAdvance(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
}
