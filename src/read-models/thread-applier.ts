import path from 'node:path';
import type { RecordedEvent } from '../event-store/event-store.port';
import type { Position } from '../event-store/position';
import { startWorker } from '../platform/threads/start-worker';
import { WorkerCalls } from '../platform/threads/worker-calls';
import {
  catalogProjections,
  type ApplyReply,
  type ApplyRequest,
  type ProjectionCatalog,
} from './apply-thread-protocol';
import type { BatchApplier } from './batch-applier';
import { toPortable } from './portable-events';
import type { Projection } from './projection';

export type { ProjectionCatalog } from './apply-thread-protocol';

type Call = ApplyRequest extends infer R ? (R extends ApplyRequest ? Omit<R, 'id'> : never) : never;

/**
 * Much of a batch's cost on the thread is per commit, not per event (each page it touches
 * is written to the WAL once per transaction, and the full-text index flushes once): events gather
 * this long after each batch. Debug chat under load: 28 turns per commit of the conversations read
 * model (21 applied inline). Read-your-writes never waits for it: a waiter ends the pause.
 */
const DEFAULT_GATHER_MS = 10;

/** The app's projections (projections/index.ts): the same relative place in sources and in dist/. */
export const APP_PROJECTIONS: ProjectionCatalog = {
  module: path.join(__dirname, '../../projections/index'),
  exportName: 'ALL_PROJECTIONS',
};

/**
 * The process's one apply thread (apply-thread.ts), shared by the runners of its SQLite read
 * models. It applies the projections of its catalog; `accepts` says which. A thread that died is
 * started again on the next call: its runners retry from their checkpoints, which the thread had
 * committed with their rows.
 */
export class ApplyThread {
  private calls: WorkerCalls<ApplyReply> | null = null;
  private closed = false;
  private known: Projection[] | null = null;

  constructor(
    private readonly catalog: ProjectionCatalog = APP_PROJECTIONS,
    /** each runner's pause after a batch, for the next to gather (batch-applier.ts) */
    readonly gatherMs = DEFAULT_GATHER_MS,
  ) {}

  /**
   * The thread can apply this projection: it is the very definition the catalog exports (a
   * projection built elsewhere, e.g. with hooks of a caller's own, stays on the caller's thread).
   */
  accepts(projection: Projection): boolean {
    this.known ??= catalogProjections(this.catalog);
    return this.known.includes(projection);
  }

  /** Creates the generation file when it does not exist yet, and opens it on the thread. */
  async open(projection: Projection, file: string): Promise<BatchApplier> {
    if (!this.accepts(projection))
      throw new Error(`the apply thread cannot apply ${projection.name}: not one of the app's projections`);
    await this.call({ op: 'open', name: projection.name, file });
    return new ThreadApplier(this, projection.name, file);
  }

  async call(request: Call): Promise<void> {
    if (this.closed) throw new Error('the read-model apply thread is closed');
    if (!this.calls || this.calls.broken) {
      this.calls = new WorkerCalls<ApplyReply>(
        startWorker(path.join(__dirname, 'apply-thread'), { workerData: this.catalog }),
        'read-model apply thread',
      );
    }
    const reply = await this.calls.call(request);
    if ('failure' in reply) throw Object.assign(new Error(reply.failure), { transient: reply.transient });
  }

  /** Lets the thread finish what it was given, close its files and exit. */
  async close(): Promise<void> {
    this.closed = true;
    const calls = this.calls;
    this.calls = null;
    if (calls && !calls.broken) await calls.close({ op: 'exit' });
  }

  /** Kills the thread mid-work, as a crash would (tests: the runners must recover). */
  async crash(): Promise<void> {
    await this.calls?.terminate();
  }
}

/** One generation file's batches, applied on the apply thread. */
class ThreadApplier implements BatchApplier {
  readonly gatherMs: number;

  constructor(
    private readonly thread: ApplyThread,
    private readonly name: string,
    private readonly file: string,
  ) {
    this.gatherMs = thread.gatherMs;
  }

  apply(events: RecordedEvent[], last: Position): Promise<void> {
    return this.thread.call({ op: 'apply', name: this.name, file: this.file, events: events.map(toPortable), last });
  }

  saveCheckpoint(position: Position): Promise<void> {
    return this.thread.call({ op: 'checkpoint', name: this.name, file: this.file, position });
  }

  close(): Promise<void> {
    return this.thread.call({ op: 'close', file: this.file });
  }
}
