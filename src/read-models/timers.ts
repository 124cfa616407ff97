import type { Logger } from 'pino';
import { In, type DataSource } from 'typeorm';
import type { Clock } from '../platform/clock/clock';
import { TimerRecord } from '../platform/database/platform.entities';
import { isReadModelLagging } from './read-model-lagging';
import { timerClaims, type TimerClaims } from './timer-claims';

export interface DueTimer<P = unknown> {
  id: string;
  dueAt: string;
  payload: P;
}

export type TimerHandler = (timer: DueTimer<any>) => Promise<void>;

const LEASE_MS = 60_000;
const MAX_SLEEP_MS = 30_000;
const RETRY_MS = 1_000;

/**
 * Durable timers on the platform clock. A timer fires after its due time, once: a process claims
 * it with a lease before running its handler and marks it fired after. A crash in between lets the
 * lease run out and the timer fire again, so handlers make their effect idempotent on the timer id
 * (the same guarantee as process managers).
 */
export class Timers {
  private handlers = new Map<string, TimerHandler>();
  private wakeTimer: NodeJS.Timeout | null = null;
  private unsubscribe: (() => void) | null = null;
  private running: Promise<void> | null = null;
  private again = false;
  private stopped = true;
  private readonly claims: TimerClaims;

  constructor(
    private readonly platform: DataSource,
    private readonly clock: Clock,
    private readonly logger: Logger,
  ) {
    this.claims = timerClaims(platform);
  }

  private get repo() {
    return this.platform.getRepository(TimerRecord);
  }

  handle(owner: string, handler: TimerHandler): void {
    this.handlers.set(owner, handler);
  }

  /** Idempotent on `id`: scheduling an id that exists changes nothing. */
  async schedule(timer: { id: string; owner: string; dueAt: Date | string; payload?: unknown }): Promise<void> {
    const dueAt = typeof timer.dueAt === 'string' ? timer.dueAt : timer.dueAt.toISOString();
    await this.repo
      .createQueryBuilder()
      .insert()
      .values({ id: timer.id, owner: timer.owner, dueAt, payload: JSON.stringify(timer.payload ?? null), status: 'pending', attempts: 0, leaseUntil: null, firedAt: null })
      .orIgnore()
      .execute();
    this.poke();
  }

  async cancel(id: string): Promise<boolean> {
    const result = await this.repo.update({ id, status: 'pending' }, { status: 'cancelled' });
    return (result.affected ?? 0) > 0;
  }

  async get(id: string): Promise<TimerRecord | null> {
    return this.repo.findOneBy({ id });
  }

  start(): void {
    this.stopped = false;
    this.unsubscribe = this.clock.onAdvance(() => this.poke());
    this.poke();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.unsubscribe?.();
    if (this.wakeTimer) clearTimeout(this.wakeTimer);
    await this.running;
  }

  /** Runs everything due now; resolves when done. Tests and the clock route call it through poke. */
  async runDue(): Promise<void> {
    this.poke();
    while (this.running) await this.running;
  }

  private poke(): void {
    if (this.stopped) return;
    if (this.running) {
      this.again = true;
      return;
    }
    this.running = this.loop()
      .catch((error: unknown) => {
        // e.g. the database stayed locked past its busy timeout: log, and look again shortly
        this.logger.error({ err: error }, 'timer loop failed; retrying');
        if (!this.stopped) {
          if (this.wakeTimer) clearTimeout(this.wakeTimer);
          this.wakeTimer = setTimeout(() => this.poke(), RETRY_MS);
          this.wakeTimer.unref();
        }
      })
      .finally(() => {
      this.running = null;
      if (this.again) {
        this.again = false;
        this.poke();
      }
    });
  }

  private async loop(): Promise<void> {
    if (this.wakeTimer) clearTimeout(this.wakeTimer);
    // A timer whose handler failed waits for the next round instead of spinning here.
    const failed = new Set<string>();
    for (;;) {
      const due = await this.claimDue(this.clock.now(), failed);
      if (due.length === 0) break;
      for (const timer of due) if (!(await this.fire(timer))) failed.add(timer.id);
      if (this.stopped) return;
    }
    if (!this.stopped) await this.sleepUntilNext();
  }

  /** Claims up to 100 due timers with a lease, atomically: two processes never claim the same one. */
  private async claimDue(now: Date, skip: Set<string>): Promise<TimerRecord[]> {
    const owners = [...this.handlers.keys()];
    if (owners.length === 0) return [];
    const leaseUntil = new Date(now.getTime() + LEASE_MS).toISOString();
    return this.claims.claimDue({ owners, nowIso: now.toISOString(), leaseUntil, skip, limit: 100 });
  }

  private async fire(timer: TimerRecord): Promise<boolean> {
    const handler = this.handlers.get(timer.owner)!;
    try {
      await handler({ id: timer.id, dueAt: timer.dueAt, payload: JSON.parse(timer.payload) });
      await this.repo.update({ id: timer.id }, { status: 'fired', firedAt: this.clock.nowIso(), leaseUntil: null, attempts: timer.attempts + 1 });
      return true;
    } catch (error) {
      // a read model still catching up (a rebuild, a burst of writes) is expected to pass by the retry
      if (isReadModelLagging(error)) this.logger.info({ timer: timer.id, owner: timer.owner }, 'timer waits for a read model to catch up; it will run again');
      else this.logger.error({ err: error, timer: timer.id, owner: timer.owner }, 'timer handler failed; it will run again');
      await this.repo.update({ id: timer.id }, { status: 'pending', leaseUntil: null, attempts: timer.attempts + 1 });
      return false;
    }
  }

  private async sleepUntilNext(): Promise<void> {
    const next = await this.repo.findOne({
      where: { status: In(['pending', 'firing']), owner: In([...this.handlers.keys()]) },
      order: { dueAt: 'ASC' },
    });
    if (this.stopped) return;
    let delay = MAX_SLEEP_MS;
    if (next) {
      const until = Date.parse(next.status === 'firing' ? next.leaseUntil! : next.dueAt) - this.clock.now().getTime();
      // Already due means its handler failed (or another process holds it): retry in a moment.
      delay = until <= 0 ? RETRY_MS : Math.min(delay, until);
    }
    // A manual clock only moves on advance(), which pokes us; sleeping still bounds a missed poke.
    this.wakeTimer = setTimeout(() => this.poke(), Math.max(delay, 5));
    this.wakeTimer.unref();
  }
}
