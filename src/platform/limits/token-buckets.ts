interface Bucket {
  tokens: number;
  updatedMs: number;
}

/**
 * One token bucket per key: `rate` tokens a second up to `burst`. Every per-caller limit of the
 * platform is one of these (requests per key, failed logins and bytes per address, bytes per
 * credential). A bucket that has refilled is forgotten, so the map holds only keys spending now;
 * past `maxKeys` the oldest is dropped (a flood of fresh keys cannot grow it without bound).
 * Process-local and on the wall clock: a rate is about real load, not about the test clock.
 */
export class TokenBuckets {
  private readonly buckets = new Map<string, Bucket>();

  constructor(
    readonly rate: number,
    readonly burst: number,
    private readonly maxKeys = 100_000,
  ) {}

  /** A rate of 0 turns the limit off. */
  get off(): boolean {
    return this.rate <= 0;
  }

  /** Takes `cost` tokens from `key`: 0 when taken, else the whole seconds until they could be (nothing taken). */
  take(key: string, cost = 1, nowMs = Date.now()): number {
    if (this.off) return 0;
    const tokens = this.tokens(key, nowMs);
    if (tokens < cost) return this.secondsUntil(cost - tokens);
    this.set(key, tokens - cost, nowMs);
    return 0;
  }

  /** Spends `cost` tokens of `key` whatever it holds, down to empty (a failure counted after the fact). */
  spend(key: string, cost: number, nowMs = Date.now()): void {
    if (this.off) return;
    this.set(key, Math.max(0, this.tokens(key, nowMs) - cost), nowMs);
  }

  /** True while no key has spent anything (or the limit is off): a caller may skip computing its key. */
  get empty(): boolean {
    return this.off || this.buckets.size === 0;
  }

  /** Whole seconds until `key` holds `cost` tokens; 0 when it does now. */
  wait(key: string, cost = 1, nowMs = Date.now()): number {
    if (this.off) return 0;
    const tokens = this.tokens(key, nowMs);
    return tokens >= cost ? 0 : this.secondsUntil(cost - tokens);
  }

  private tokens(key: string, nowMs: number): number {
    const bucket = this.buckets.get(key);
    if (!bucket) return this.burst;
    const tokens = Math.min(this.burst, bucket.tokens + ((nowMs - bucket.updatedMs) / 1000) * this.rate);
    if (tokens >= this.burst) this.buckets.delete(key);
    return tokens;
  }

  private set(key: string, tokens: number, nowMs: number): void {
    const bucket = this.buckets.get(key);
    if (bucket) {
      bucket.tokens = tokens;
      bucket.updatedMs = nowMs;
      return;
    }
    if (tokens >= this.burst) return;
    if (this.buckets.size >= this.maxKeys) this.buckets.delete(this.buckets.keys().next().value!);
    this.buckets.set(key, { tokens, updatedMs: nowMs });
  }

  private secondsUntil(missing: number): number {
    return Math.max(1, Math.ceil(missing / this.rate));
  }
}
