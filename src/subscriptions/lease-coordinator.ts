import type { Logger } from 'pino';
import { holds, type Lease } from './lease-session';

/** `follower`: another process holds the lease and does the work; this one waits to take over (a read model's follower also serves reads). */
export type RunnerRole = 'leader' | 'follower';

/** Whose lease it is, for the log: `{ projection: name }` or `{ processManager: name }`. */
export interface LeaseSubject {
  /** the log field naming the subscriber */
  field: 'projection' | 'processManager';
  name: string;
  /** what it is and what it does, in the log's words: "projection", "applying" */
  noun: string;
  work: string;
}

/** What the runner does when this process's role changes; each step runs in the runner's serial order. */
export interface RoleSteps {
  /** Runs `work` after every switch before it (taking or losing the lease, following a rebuild); logs `failure` if it throws. */
  serialize(work: () => Promise<void>, failure: string): Promise<void>;
  stopped(): boolean;
  /** Took the lease: apply from the checkpoint on. */
  promote(): Promise<void>;
  /** Lost it: stop applying at once, and follow whoever takes it. */
  demote(): Promise<void>;
}

/** How often a follower tries to take a free lease: a dead leader is replaced within about this long. */
const LEASE_RETRY_MS = 2000;

/**
 * Which process runs a subscriber where several share the platform database (a read model's
 * projection, a process manager): the one holding its lease leads, the others follow and contend
 * for it, so a leader that dies is replaced. Without a lease (one process on its own files) this
 * process always leads.
 */
export class LeaseCoordinator {
  role: RunnerRole = 'leader';
  private timer: NodeJS.Timeout | null = null;

  constructor(
    private readonly lease: Lease | null,
    private readonly subject: LeaseSubject,
    private readonly logger: Logger,
    private readonly steps: RoleSteps,
  ) {}

  get leader(): boolean {
    return this.role === 'leader';
  }

  /** Takes the lease if it is free; else follows, and contends from now on. */
  async start(): Promise<void> {
    if (!this.lease) return;
    this.lease.onLost(() => void this.demote());
    this.role = (await this.tryLease()) ? 'leader' : 'follower';
    this.timer = setInterval(() => void this.contend(), LEASE_RETRY_MS);
    this.timer.unref();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
  }

  async release(): Promise<void> {
    await this.lease?.release();
  }

  private tryLease(): Promise<boolean> {
    const { noun } = this.subject;
    return holds(this.lease, (error) =>
      this.logger.warn({ err: error, ...this.fields() }, `could not try the ${noun} lease; following for now`),
    );
  }

  /** A follower takes a lease its holder let go (stopped, or died): it runs from the checkpoint on. */
  private contend(): Promise<void> {
    const { noun, work } = this.subject;
    return this.steps.serialize(async () => {
      if (this.steps.stopped() || this.role === 'leader' || !(await this.tryLease())) return;
      this.role = 'leader';
      this.logger.info(this.fields(), `took the ${noun} lease: ${work} here`);
      await this.steps.promote();
    }, `could not take over the ${noun}`);
  }

  /** The lease is gone (its connection failed): stop at once, and follow whoever takes it. */
  private demote(): Promise<void> {
    const { noun } = this.subject;
    return this.steps.serialize(async () => {
      if (this.steps.stopped() || this.role === 'follower') return;
      this.role = 'follower';
      this.logger.warn(this.fields(), `lost the ${noun} lease: following`);
      await this.steps.demote();
    }, `could not step down as the ${noun} leader`);
  }

  private fields(): Record<string, string> {
    return { [this.subject.field]: this.subject.name };
  }
}
