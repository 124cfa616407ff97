import path from 'node:path';
import type { RecordedEvent } from '../../event-store/event-store.port';
import type { Position } from '../../event-store/position';
import { startWorker } from '../../platform/threads/start-worker';
import { WorkerCalls } from '../../platform/threads/worker-calls';
import {
  catalogProjections,
  type ApplyBatches,
  type ApplyPart,
  type ApplyReply,
  type ApplyRequest,
  type ProjectionCatalog,
} from './apply-thread-protocol';
import type { BatchApplier } from './batch-applier';
import { toPortable, type PortableEvent } from './portable-events';
import type { Projection } from '../projection';

export type { ProjectionCatalog } from './apply-thread-protocol';

type Direct =
  Exclude<ApplyRequest, ApplyBatches> extends infer R
    ? R extends Exclude<ApplyRequest, ApplyBatches>
      ? Omit<R, 'id'>
      : never
    : never;
/** One runner's batch: the events of it that its projection handles, and where it ended. */
type ApplyCall = { op: 'apply'; name: string; file: string; events: RecordedEvent[]; last: Position };
type Call = Direct | ApplyCall;

interface Waiting {
  call: ApplyCall;
  resolve(): void;
  reject(error: Error): void;
}

/**
 * Much of a batch's cost on the thread is per commit, not per event (each page it touches
 * is written to the WAL once per transaction, and the full-text index flushes once): events gather
 * this long after each batch (bench/README.md, "Design measurements"). Read-your-writes never
 * waits for it: a waiter ends the pause.
 */
const DEFAULT_GATHER_MS = 10;

/**
 * The process's apply threads (apply-thread.ts), shared by the runners of its SQLite read models:
 * one for the projections that declare `applyApart` (a cost per event that would hold the others
 * back: the conversations' full-text index) and one for the rest, so a catch-up of every read model
 * runs on two cores. It applies the projections of its catalog; `accepts` says which. A thread that
 * died is started again on the next call: its runners retry from their checkpoints, which the
 * thread had committed with their rows.
 */
export class ApplyThread {
  private readonly lanes: Lane[];
  private readonly laneOfFile = new Map<string, Lane>();
  private closed = false;
  private readonly known: readonly Projection[];
  /** What crossed to the threads in batch messages (tests: each event once per thread, whatever the runners). */
  readonly sent = { messages: 0, parts: 0, events: 0 };

  constructor(
    catalog: ProjectionCatalog,
    /** each runner's pause after a batch, for the next to gather (batch-applier.ts) */
    readonly gatherMs = DEFAULT_GATHER_MS,
    /** the catalog's list, as this thread already has it (loaded from `catalog.module` when not given) */
    projections: readonly Projection[] = catalogProjections(catalog),
  ) {
    this.known = projections;
    this.lanes = [new Lane(catalog, this.sent), new Lane(catalog, this.sent)];
  }

  /**
   * The thread can apply this projection: it is the very definition the catalog exports (a
   * projection built elsewhere, e.g. with hooks of a caller's own, stays on the caller's thread).
   */
  accepts(projection: Projection): boolean {
    return this.known.includes(projection);
  }

  /** Creates the generation file when it does not exist yet, and opens it on its thread. */
  async open(projection: Projection, file: string): Promise<BatchApplier> {
    if (!this.accepts(projection))
      throw new Error(`the apply thread cannot apply ${projection.name}: not one of the app's projections`);
    this.laneOfFile.set(file, this.lanes[projection.applyApart ? 1 : 0]);
    await this.call({ op: 'open', name: projection.name, file });
    return new ThreadApplier(this, projection.name, file);
  }

  /** Resolves with what the thread said the request did (bulk-end: whether it built anything). */
  async call(request: Call): Promise<boolean | undefined> {
    if (this.closed) throw new Error('the read-model apply thread is closed');
    const lane = this.laneOfFile.get(request.file) ?? this.lanes[0];
    if (request.op === 'close') this.laneOfFile.delete(request.file);
    return lane.call(request);
  }

  /** Lets the threads finish what they were given, close their files and exit. */
  async close(): Promise<void> {
    this.closed = true;
    await Promise.all(this.lanes.map((lane) => lane.close()));
  }

  /** Kills the threads mid-work, as a crash would (tests: the runners must recover). */
  async crash(): Promise<void> {
    await Promise.all(this.lanes.map((lane) => lane.crash()));
  }
}

/** One apply thread, started on first use, and the batches waiting to cross to it. */
class Lane {
  private calls: WorkerCalls<ApplyReply> | null = null;
  /** The batches runners handed over in this turn of the event loop, sent together at its end. */
  private waiting: Waiting[] | null = null;

  constructor(
    private readonly catalog: ProjectionCatalog,
    private readonly sent: ApplyThread['sent'],
  ) {}

  async call(request: Call): Promise<boolean | undefined> {
    if (request.op === 'apply') return this.gather(request).then(() => undefined);
    // what was handed over before this reaches the thread before it (a close after a file's last batch)
    this.send();
    const reply = await this.worker().call(request);
    if ('failure' in reply) throw failure(reply);
    return 'done' in reply ? reply.done : undefined;
  }

  /**
   * Runners that share a batch of the log (the log feed hands it to each in the same turn) hand
   * over their parts of it one after another: they cross in one message at the end of the turn,
   * each event once.
   */
  private gather(call: ApplyCall): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      if (!this.waiting) {
        this.waiting = [];
        setImmediate(() => this.send());
      }
      this.waiting.push({ call, resolve, reject });
    });
  }

  private send(): void {
    const waiting = this.waiting;
    this.waiting = null;
    if (!waiting || waiting.length === 0) return;
    const indexOf = new Map<Position, number>();
    const events: PortableEvent[] = [];
    const parts: ApplyPart[] = waiting.map(({ call }) => ({
      name: call.name,
      file: call.file,
      last: call.last,
      indices: call.events.map((event) => {
        let index = indexOf.get(event.position);
        if (index === undefined) {
          index = events.length;
          indexOf.set(event.position, index);
          events.push(toPortable(event));
        }
        return index;
      }),
    }));
    this.sent.messages++;
    this.sent.parts += parts.length;
    this.sent.events += events.length;
    let sent: Promise<ApplyReply>;
    try {
      sent = this.worker().call({ op: 'apply', events, parts });
    } catch (error) {
      sent = Promise.reject(error as Error);
    }
    sent.then(
      (reply) => {
        const outcomes = 'parts' in reply ? reply.parts : waiting.map(() => ('failure' in reply ? reply : null));
        waiting.forEach((w, i) => {
          const outcome = outcomes[i];
          if (outcome) w.reject(failure(outcome));
          else w.resolve();
        });
      },
      (error: Error) => {
        for (const w of waiting) w.reject(error);
      },
    );
  }

  private worker(): WorkerCalls<ApplyReply> {
    if (!this.calls || this.calls.broken) {
      this.calls = new WorkerCalls<ApplyReply>(
        startWorker(path.join(__dirname, 'apply-thread'), { workerData: this.catalog }),
        'read-model apply thread',
      );
    }
    return this.calls;
  }

  async close(): Promise<void> {
    this.send();
    const calls = this.calls;
    this.calls = null;
    if (calls && !calls.broken) await calls.close({ op: 'exit' });
  }

  async crash(): Promise<void> {
    await this.calls?.terminate();
  }
}

function failure(outcome: { failure: string; transient: boolean }): Error {
  return Object.assign(new Error(outcome.failure), { transient: outcome.transient });
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

  async apply(events: RecordedEvent[], last: Position): Promise<void> {
    await this.thread.call({ op: 'apply', name: this.name, file: this.file, events, last });
  }

  async saveCheckpoint(position: Position): Promise<void> {
    await this.thread.call({ op: 'checkpoint', name: this.name, file: this.file, position });
  }

  async beginBulk(): Promise<void> {
    await this.thread.call({ op: 'bulk-begin', name: this.name, file: this.file });
  }

  async endBulk(): Promise<boolean> {
    return (await this.thread.call({ op: 'bulk-end', name: this.name, file: this.file })) === true;
  }

  async close(): Promise<void> {
    await this.thread.call({ op: 'close', file: this.file });
  }
}
