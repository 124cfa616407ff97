/**
 * Messages per second per source address, as token buckets (bursts to twice the rate). A flood from
 * one address is dropped without an answer (answering would amplify it); the table is bounded, the
 * longest-idle sources forgotten first.
 */
export class SourceRate {
  private readonly buckets = new Map<string, { tokens: number; at: number }>();

  constructor(
    private readonly perSecond: number,
    private readonly maxSources = 10_000,
    private readonly now: () => number = () => Date.now(),
  ) {}

  allow(source: string): boolean {
    const now = this.now();
    const burst = this.perSecond * 2;
    const bucket = this.buckets.get(source) ?? { tokens: burst, at: now };
    bucket.tokens = Math.min(burst, bucket.tokens + ((now - bucket.at) / 1000) * this.perSecond);
    bucket.at = now;
    // re-inserted: the Map's order is then least recently seen first
    this.buckets.delete(source);
    this.buckets.set(source, bucket);
    if (this.buckets.size > this.maxSources) this.buckets.delete(this.buckets.keys().next().value as string);
    if (bucket.tokens < 1) return false;
    bucket.tokens -= 1;
    return true;
  }
}
