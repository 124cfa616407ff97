import type { Logger } from 'pino';
import type { DataSource } from 'typeorm';
import type { EventStore } from '../event-store/event-store.port';
import type { Position } from '../event-store/position';
import type { Lease } from '../subscriptions/lease-session';
import { DeadLetterStore } from '../subscriptions/dead-letters';
import { FollowedCheckpoints } from './followed-checkpoints';
import { ProcessManagerRunner, type ProcessManager } from './process-manager';

/** Contexts register their process managers at module init; they all start with the app. */
export class ProcessManagers {
  private readonly runners = new Map<string, ProcessManagerRunner>();
  private started = false;
  private readonly followed: FollowedCheckpoints;

  /** `leaseFor`: where processes share the platform database, each manager runs in one of them at a time. */
  constructor(
    private readonly store: EventStore,
    private readonly platform: DataSource,
    private readonly logger: Logger,
    private readonly leaseFor: (name: string) => Lease | null = () => null,
    /** where the managers' dead letters are kept: the platform database's table */
    readonly deadLetters: DeadLetterStore = new DeadLetterStore(platform),
    /** The process's one reader of the log (subscriptions/log-feed.ts), shared with the read models. */
    private readonly log: Pick<EventStore, 'subscribeToAll'> = store,
  ) {
    this.followed = new FollowedCheckpoints(platform, (error) =>
      this.logger.warn({ err: error }, 'could not read the checkpoints of the process managers another process runs'),
    );
  }

  register(manager: ProcessManager): void {
    if (this.runners.has(manager.name)) throw new Error(`two process managers are named ${manager.name}`);
    if (this.started) throw new Error(`process manager ${manager.name} registered after start`);
    this.runners.set(
      manager.name,
      new ProcessManagerRunner(
        manager,
        this.store,
        this.platform,
        this.logger,
        this.leaseFor(`process-manager:${manager.name}`),
        this.deadLetters,
        this.log,
      ),
    );
  }

  async start(): Promise<void> {
    this.started = true;
    await Promise.all([...this.runners.values()].map((runner) => runner.start()));
  }

  async stop(): Promise<void> {
    await Promise.all([...this.runners.values()].map((runner) => runner.stop()));
  }

  /**
   * Waits, at most `timeoutMs`, until every manager a read may wait for (ProcessManager
   * `awaitedByReads`) has reacted to the log as it is now: what a request appended before this call
   * has then had its effects (a conversation an SMS or a call started behind the log exists).
   * Resolves either way; the caller looks again.
   */
  async caughtUpWithLog(timeoutMs: number): Promise<void> {
    const awaited = [...this.runners.values()]
      .filter((runner) => runner.manager.awaitedByReads !== false)
      .map((runner) => runner.manager.name);
    if (awaited.length === 0) return;
    await this.caughtUpWith(await this.store.headPosition(), timeoutMs, awaited);
  }

  /**
   * Waits, at most `timeoutMs`, until the managers named (every one by default) have reacted to
   * the log up to `target` (a call's end: its conversation's end is then appended): those running
   * here by their position, those another process runs (it holds their lease) by the checkpoint it
   * stores. Whether they did in time.
   */
  async caughtUpWith(target: Position, timeoutMs: number, names?: readonly string[]): Promise<boolean> {
    const runners = [...this.runners.values()].filter((runner) => !names || names.includes(runner.manager.name));
    const waits = runners.filter((runner) => runner.active).map((runner) => runner.caughtUp(target));
    const elsewhere = runners.filter((runner) => runner.followed).map((runner) => runner.manager.name);
    waits.push(this.followed.reached(elsewhere, target));
    let timer: NodeJS.Timeout | undefined;
    try {
      return await Promise.race([
        Promise.all(waits.map((wait) => wait.promise)).then(() => true),
        new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(false), timeoutMs))),
      ]);
    } finally {
      clearTimeout(timer);
      for (const wait of waits) wait.cancel();
    }
  }

  status(): ProcessManagerStatus[] {
    return [...this.runners.values()].map((r) => ({
      name: r.manager.name,
      position: r.position,
      active: r.active,
      error: r.error,
    }));
  }

  /**
   * The status with how many events of the log each manager has still to read (null where the
   * store cannot count that far cheaply, and for managers another process runs). A manager that
   * stops advancing (an error it keeps retrying, a wait that never ends) shows here and in /metrics:
   * its effects (bindings, timers, deliveries) stop while every read still answers.
   */
  async report(): Promise<ProcessManagerReport[]> {
    const open = await this.deadLetters.openCounts().catch(() => null);
    return Promise.all(
      this.status().map(async (s) => ({
        ...s,
        lagEvents: s.active ? await this.store.countAfter(s.position) : null,
        deadLetters: open ? (open.get(`process-manager:${s.name}`) ?? 0) : null,
      })),
    );
  }
}

export interface ProcessManagerStatus {
  name: string;
  position: Position;
  /** false while another process holds this manager's lease: it runs there */
  active: boolean;
  error: string | null;
}

export interface ProcessManagerReport extends ProcessManagerStatus {
  lagEvents: number | null;
  /** open dead letters: events its handler kept failing on, set aside (null: the database did not answer) */
  deadLetters: number | null;
}
