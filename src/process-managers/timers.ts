import { Inject, Injectable, Optional } from '@nestjs/common';
import type { Logger } from 'pino';
import { In, type DataSource } from 'typeorm';
import { Clock } from '../platform/clock/clock';
import { PLATFORM_DB } from '../platform/database/platform-database';
import { LOGGER } from '../platform/logging/logger';
import { TimerRecord } from '../platform/database/platform.entities';
import { DeadLetterStore, errorText } from '../subscriptions/dead-letters';
import { isReadModelLagging } from '../read-models/failures/read-model-lagging';
import { timerClaims, type TimerClaims } from './timer-claims';
import { isTransientFailure } from '../subscriptions/transient-failure';
import { ROW_LEASE_MS, RowLeases } from '../subscriptions/row-leases';

export interface DueTimer<P = unknown> {
  id: string;
  dueAt: string;
  payload: P;
}

/** `never`: a handler typed for its own payload fits; only its owner's timers reach it. */
export type TimerHandler = (timer: DueTimer<never>) => Promise<void>;

/** A handler still running after this long (platform time) is taken to hang: its timer may fire elsewhere. */
const MAX_HOLD_MS = 60_000;
const MAX_SLEEP_MS = 30_000;
const RETRY_MS = 1_000;
/** While some of its timers are dead, the service looks this often for ones an operator re-armed. */
const REARM_POLL_MS = 2_000;
/** A failure whose retry time passed this long ago was of a timer another process fired or re-armed since: forgotten. */
const FORGET_FAILURE_MS = 10 * 60_000;

/**
 * How a handler that throws (not transiently) is retried: after `baseMs`, then twice as long each
 * time, in real time (a manual clock may stand still); the `attempts`-th failure in a row
 * dead-letters the timer. The defaults retry after 1, 2, 4 and 8 s, then set it aside. A
 * transient failure is retried after `transientMs`, without counting.
 */
export interface TimerRetryPolicy {
  baseMs: number;
  attempts: number;
  transientMs: number;
}

const TIMER_RETRY: TimerRetryPolicy = { baseMs: RETRY_MS, attempts: 5, transientMs: RETRY_MS };

/** Binds another retry policy than TIMER_RETRY (tests that retry in milliseconds); the app binds none. */
const TIMER_RETRY_POLICY = Symbol('TimerRetryPolicy');

/** One timer's failures in this process: how many in a row, and when it may run again (Date.now()). */
interface Failing {
  failures: number;
  retryAt: number;
}

/**
 * Durable timers on the platform clock. A timer fires after its due time, once: a process claims
 * it with a lease before running its handler, renews the lease while it runs, and marks it fired
 * after. A crash in between lets the lease run out within seconds and the timer fire again
 * (in another process), so handlers make their effect idempotent on the timer id (the same
 * guarantee as process managers).
 *
 * A handler that keeps throwing for one timer is retried with backoff, then the timer is
 * dead-lettered (status `dead`, a `timer` row in the dead-letter table) so it neither spins nor
 * logs forever; `npm run projections -- retry <owner> <id>` re-arms it. A transient failure (a
 * database busy, a read model catching up) is retried about every second, however long it lasts.
 */
@Injectable()
export class Timers {
  private handlers = new Map<string, TimerHandler>();
  private wakeTimer: NodeJS.Timeout | null = null;
  private unsubscribe: (() => void) | null = null;
  private running: Promise<void> | null = null;
  private again = false;
  private stopped = true;
  private readonly claims: TimerClaims;
  /** timers whose handler failed in this process and wait to run again */
  private readonly failing = new Map<string, Failing>();
  /** whether some of this process's owners may have dead timers (then it looks for re-armed ones) */
  private deadKnown = true;
  /** the timers claimed and not yet settled: their leases are renewed until they are */
  private readonly leases: RowLeases;

  constructor(
    @Inject(PLATFORM_DB) private readonly platform: DataSource,
    private readonly clock: Clock,
    @Inject(LOGGER) private readonly logger: Logger,
    @Optional() readonly deadLetters: DeadLetterStore = new DeadLetterStore(platform),
    @Optional() @Inject(TIMER_RETRY_POLICY) private readonly retry: TimerRetryPolicy = TIMER_RETRY,
  ) {
    this.claims = timerClaims(platform);
    this.leases = new RowLeases({
      renew: async (ids) => {
        const leaseUntil = new Date(this.clock.nowMs() + ROW_LEASE_MS).toISOString();
        await this.repo.update({ id: In(ids), status: 'firing' }, { leaseUntil });
      },
      onError: (error) => this.logger.warn({ err: error }, 'could not renew the leases of the timers firing here'),
      now: () => this.clock.nowMs(),
      maxHoldMs: MAX_HOLD_MS,
    });
  }

  private get repo() {
    return this.platform.getRepository(TimerRecord);
  }

  /** An owner registered after start may have due (or dead) timers already: looked for at once. */
  handle(owner: string, handler: TimerHandler): void {
    // two contexts claiming one owner would each fire the other's timers
    if (this.handlers.has(owner)) throw new Error(`two timer handlers for the owner ${owner}`);
    this.handlers.set(owner, handler);
    this.deadKnown = true;
    this.poke();
  }

  /** Idempotent on `id`: scheduling an id that exists changes nothing. */
  async schedule(timer: { id: string; owner: string; dueAt: Date | string; payload?: unknown }): Promise<void> {
    const dueAt = typeof timer.dueAt === 'string' ? timer.dueAt : timer.dueAt.toISOString();
    await this.repo
      .createQueryBuilder()
      .insert()
      .values({
        id: timer.id,
        owner: timer.owner,
        dueAt,
        payload: JSON.stringify(timer.payload ?? null),
        status: 'pending',
        attempts: 0,
        leaseUntil: null,
        firedAt: null,
      })
      .orIgnore()
      .execute();
    this.poke();
  }

  /**
   * Erasure (contract §24): the timers of `owner` whose payload holds `text` lose their payload, and
   * those not yet run are cancelled (one being fired now runs to its end). The caller names what
   * only its own payloads hold, e.g. a conversation id.
   */
  async forgetPayloads(owner: string, text: string): Promise<number> {
    const pattern = `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    const found = await this.repo
      .createQueryBuilder('t')
      .select(['t.id', 't.status'])
      .where("t.owner = :owner AND t.payload LIKE :pattern ESCAPE '\\'", { owner, pattern })
      .getMany();
    let forgotten = 0;
    for (const timer of found) {
      if (timer.status === 'firing') continue;
      const status = timer.status === 'pending' || timer.status === 'dead' ? 'cancelled' : timer.status;
      const result = await this.repo.update({ id: timer.id, status: timer.status }, { status, payload: 'null' });
      forgotten += result.affected ?? 0;
    }
    return forgotten;
  }

  async cancel(id: string): Promise<boolean> {
    const result = await this.repo.update({ id, status: 'pending' }, { status: 'cancelled' });
    return (result.affected ?? 0) > 0;
  }

  async get(id: string): Promise<TimerRecord | null> {
    return this.repo.findOneBy({ id });
  }

  /** The owners this process fires timers for. */
  owners(): string[] {
    return [...this.handlers.keys()].sort();
  }

  /** Each owner this process fires timers for, with its open dead letters (null: the database did not answer). */
  async report(): Promise<TimerOwnerReport[]> {
    const open = await this.deadLetters.openCounts().catch(() => null);
    return this.owners().map((owner) => ({ owner, deadLetters: open ? (open.get(`timer:${owner}`) ?? 0) : null }));
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
    this.leases.stop();
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
    // A timer whose handler failed waits out its backoff instead of spinning here.
    const waiting = this.waitingIds();
    for (;;) {
      const due = await this.claimDue(this.clock.now(), waiting);
      if (due.length === 0) break;
      this.leases.hold(due.map((timer) => timer.id));
      try {
        for (const timer of due) {
          if (!(await this.fire(timer))) waiting.add(timer.id);
          this.leases.release(timer.id);
        }
      } finally {
        for (const timer of due) this.leases.release(timer.id);
      }
      if (this.stopped) return;
    }
    if (!this.stopped) await this.sleepUntilNext();
  }

  /** The failed timers still in their backoff; forgets those long untouched (fired elsewhere since). */
  private waitingIds(): Set<string> {
    const now = Date.now();
    const waiting = new Set<string>();
    for (const [id, failing] of this.failing) {
      if (failing.retryAt > now) waiting.add(id);
      else if (now - failing.retryAt > FORGET_FAILURE_MS) this.failing.delete(id);
    }
    return waiting;
  }

  /** Claims up to 100 due timers with a lease, atomically: two processes never claim the same one. */
  private async claimDue(now: Date, skip: Set<string>): Promise<TimerRecord[]> {
    const owners = [...this.handlers.keys()];
    if (owners.length === 0) return [];
    const leaseUntil = new Date(now.getTime() + ROW_LEASE_MS).toISOString();
    return this.claims.claimDue({ owners, nowIso: now.toISOString(), leaseUntil, skip, limit: 100 });
  }

  private async fire(timer: TimerRecord): Promise<boolean> {
    const handler = this.handlers.get(timer.owner)!;
    try {
      // the payload is what this owner scheduled
      await handler({ id: timer.id, dueAt: timer.dueAt, payload: JSON.parse(timer.payload) as never });
      // a fired timer keeps no payload: it served its one run, and may have held personal text (an SMS to send)
      await this.repo.update(
        { id: timer.id },
        {
          status: 'fired',
          firedAt: this.clock.nowIso(),
          leaseUntil: null,
          attempts: timer.attempts + 1,
          payload: 'null',
        },
      );
    } catch (error) {
      await this.failed(timer, error);
      return false;
    }
    this.failing.delete(timer.id);
    // only a timer that failed before can have a dead letter (it was re-armed): the rest pay nothing
    if (timer.attempts > 0) {
      await this.deadLetters.resolveTimer(timer.owner, timer.id).catch((error: unknown) => {
        this.logger.warn(
          { err: error, timer: timer.id, owner: timer.owner },
          'a re-armed timer fired but its dead letter could not be resolved; resolve it by hand',
        );
      });
    }
    return true;
  }

  /**
   * A failure of the world (a read model still catching up, a database busy) is expected to pass:
   * retried in a second, however often. A handler that throws otherwise is retried with backoff
   * and, after `retry.attempts` failures in a row, dead-lettered.
   */
  private async failed(timer: TimerRecord, error: unknown): Promise<void> {
    const log = { timer: timer.id, owner: timer.owner };
    const before = this.failing.get(timer.id)?.failures ?? 0;
    const transient = isTransientFailure(error);
    const failures = transient ? before : before + 1;
    if (failures >= this.retry.attempts) {
      // recorded before the timer is marked dead: a crash in between leaves it to fire again
      await this.deadLetters.recordTimer({ owner: timer.owner, timerId: timer.id, error, attempts: failures });
      await this.repo.update({ id: timer.id }, { status: 'dead', leaseUntil: null, attempts: timer.attempts + 1 });
      this.failing.delete(timer.id);
      this.deadKnown = true;
      this.logger.error(
        { ...log, attempts: failures, error: errorText(error) },
        'dead-lettered a timer its handler keeps failing for; it will not run again until retried (npm run projections -- dead-letters)',
      );
      return;
    }
    const delay = transient ? this.retry.transientMs : this.retry.baseMs * 2 ** (failures - 1);
    this.failing.set(timer.id, { failures, retryAt: Date.now() + delay });
    if (isReadModelLagging(error)) this.logger.info(log, 'timer waits for a read model to catch up; it will run again');
    else if (transient)
      this.logger.warn({ ...log, err: error }, 'timer handler failed for a passing reason; it will run again');
    else this.logger.error({ ...log, err: error, attempts: failures }, 'timer handler failed; it will run again');
    await this.repo.update({ id: timer.id }, { status: 'pending', leaseUntil: null, attempts: timer.attempts + 1 });
  }

  private async sleepUntilNext(): Promise<void> {
    const owners = In([...this.handlers.keys()]);
    const next = await this.repo.findOne({
      where: { status: In(['pending', 'firing']), owner: owners },
      order: { dueAt: 'ASC' },
    });
    if (this.deadKnown)
      this.deadKnown =
        (await this.repo.findOne({ select: { id: true }, where: { status: 'dead', owner: owners } })) !== null;
    if (this.stopped) return;
    let delay = this.deadKnown ? REARM_POLL_MS : MAX_SLEEP_MS;
    if (next) {
      const until = Date.parse(next.status === 'firing' ? next.leaseUntil! : next.dueAt) - this.clock.now().getTime();
      // Already due means its handler failed (or another process holds it): look again in a moment.
      delay = Math.min(delay, until <= 0 ? RETRY_MS : until);
    }
    // a failed timer runs again as its backoff ends
    const now = Date.now();
    for (const { retryAt } of this.failing.values()) if (retryAt > now) delay = Math.min(delay, retryAt - now);
    // A manual clock only moves on advance(), which pokes us; sleeping still bounds a missed poke.
    this.wakeTimer = setTimeout(() => this.poke(), Math.max(delay, 5));
    this.wakeTimer.unref();
  }
}

export interface TimerOwnerReport {
  owner: string;
  /** open dead letters: timers its handler kept failing for, set aside */
  deadLetters: number | null;
}
