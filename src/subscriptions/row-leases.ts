/**
 * How long a claimed row (a timer firing, a webhook delivery being sent) stays leased without a
 * renewal. Short, so that the work of a process that dies moves to another within seconds
 * (contract §22); renewed every ROW_LEASE_RENEW_MS while the work lasts, so a slow handler or a
 * slow receiver keeps its claim. A process stalled past it may see its work done twice, which the
 * claimed work tolerates (timers are idempotent on their id, deliveries settle once).
 */
export const ROW_LEASE_MS = 4_000;
const ROW_LEASE_RENEW_MS = 1_000;

export interface RowLeaseOptions {
  /** extends the lease of each row of `ids` still claimed by this process */
  renew(ids: string[]): Promise<void>;
  onError(error: unknown): void;
  /** the platform clock's milliseconds, in which claims are leased */
  now(): number;
  /**
   * How long a row is renewed at most: past it, work that never ends (a hung handler) is left to
   * lapse and be taken over, as a dead process's would be.
   */
  maxHoldMs: number;
  everyMs?: number;
}

/**
 * The rows this process holds leases on, renewed together on one timer while any is held. A
 * renewal that fails is reported and tried again on the next tick; a renewal still running when
 * the next tick comes is not doubled.
 */
export class RowLeases {
  /** each held row, with when it was claimed (platform clock) */
  private readonly held = new Map<string, number>();
  private ticker: NodeJS.Timeout | null = null;
  private renewing = false;

  constructor(private readonly options: RowLeaseOptions) {}

  hold(ids: Iterable<string>): void {
    const now = this.options.now();
    for (const id of ids) if (!this.held.has(id)) this.held.set(id, now);
    if (this.held.size > 0 && !this.ticker) {
      this.ticker = setInterval(() => void this.tick(), this.options.everyMs ?? ROW_LEASE_RENEW_MS);
      this.ticker.unref();
    }
  }

  release(id: string): void {
    this.held.delete(id);
    if (this.held.size === 0) this.stop();
  }

  get size(): number {
    return this.held.size;
  }

  stop(): void {
    if (this.ticker) clearInterval(this.ticker);
    this.ticker = null;
  }

  private async tick(): Promise<void> {
    if (this.renewing) return;
    const now = this.options.now();
    const ids = [...this.held].filter(([, claimedAt]) => now - claimedAt < this.options.maxHoldMs).map(([id]) => id);
    if (ids.length === 0) return;
    this.renewing = true;
    try {
      await this.options.renew(ids);
    } catch (error) {
      this.options.onError(error);
    } finally {
      this.renewing = false;
    }
  }
}
