/**
 * Circuit breakers for agent tools (contract §20), one per account, agent and tool: after
 * `failures` consecutive failed calls a breaker opens and refuses calls at once for `cooldownMs`
 * (a dead endpoint then costs a turn nothing instead of a timeout); then it lets one call through
 * (half-open): a success closes it, a failure opens it again. Kept in memory, per process: after a
 * restart, or on another process of the scaled set, a dead endpoint is found again by its own
 * failures, which is cheap next to sharing the state.
 */
export interface BreakerSettings {
  failures: number;
  cooldownMs: number;
}

interface Breaker {
  failures: number;
  openedAt: number | null;
  trialInFlight: boolean;
}

const MAX_BREAKERS = 10_000;

export class ToolBreakers {
  private readonly breakers = new Map<string, Breaker>();

  constructor(
    private readonly settings: BreakerSettings,
    private readonly nowMs: () => number,
  ) {}

  /** Whether a call may go now; a half-open breaker lets exactly one through until it reports. */
  admit(key: string): boolean {
    const breaker = this.breakers.get(key);
    if (!breaker || breaker.openedAt === null) return true;
    if (this.nowMs() - breaker.openedAt < this.settings.cooldownMs || breaker.trialInFlight) return false;
    breaker.trialInFlight = true;
    return true;
  }

  succeeded(key: string): void {
    this.breakers.delete(key);
  }

  failed(key: string): void {
    const breaker = this.breakers.get(key) ?? { failures: 0, openedAt: null, trialInFlight: false };
    breaker.failures++;
    if (breaker.trialInFlight || breaker.failures >= this.settings.failures) breaker.openedAt = this.nowMs();
    breaker.trialInFlight = false;
    if (!this.breakers.has(key) && this.breakers.size >= MAX_BREAKERS)
      this.breakers.delete(this.breakers.keys().next().value!);
    this.breakers.set(key, breaker);
  }

  isOpen(key: string): boolean {
    return this.breakers.get(key)?.openedAt != null;
  }
}
