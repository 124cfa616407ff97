import path from 'node:path';
import type Database from 'better-sqlite3';
import { keepThreadPriority } from '../../platform/threads/helper-threads';
import { startReadyWorker } from '../../platform/threads/start-worker';
import { WorkerCalls } from '../../platform/threads/worker-calls';
import { BatchWriter, type AppendOutcome, type AppendRequest } from './batch-writer';
import type { CheckpointMode, SyncMode } from './schema';
import type { WriterReady } from './writer-thread';
import { packBatch, unpackOutcomes, type WireOutcomes } from './writer-wire';

/**
 * Where a batch of appends is written: resolves with one outcome per append, rejects when nothing
 * was stored. Batches handed over before earlier ones settled are written after them, in order.
 */
export interface Writer {
  write(batch: AppendRequest[]): Promise<AppendOutcome[]>;
  close(): Promise<void>;
}

/** On the caller's connection, in the caller's thread: the commit's fsync blocks the event loop. */
export class InlineWriter implements Writer {
  private readonly writer: BatchWriter;

  constructor(db: Database.Database) {
    this.writer = new BatchWriter(db);
  }

  async write(batch: AppendRequest[]): Promise<AppendOutcome[]> {
    return this.writer.write(batch);
  }

  async close(): Promise<void> {}
}

type Reply = { id: number; outcomes: WireOutcomes } | { id: number; failure: { message: string; code?: string } };

/**
 * On its own connection in a worker thread (writer-thread.ts): the event loop goes on serving
 * requests and queueing the next batch while a commit is synced. If the thread dies, every write
 * waiting on it and every later one fails with the reason; nothing is retried behind the caller's back.
 */
export class ThreadWriter implements Writer {
  private constructor(private readonly calls: WorkerCalls<Reply>) {}

  static async start(file: string, sync: SyncMode, checkpoints: CheckpointMode = 'auto'): Promise<ThreadWriter> {
    const { worker, ready } = await startReadyWorker<WriterReady>(path.join(__dirname, 'writer-thread'), {
      workerData: { file, sync, checkpoints },
    });
    // every append's commit waits on this thread: it stays at the event loop's priority
    worker.once('exit', keepThreadPriority(ready.threadId));
    return new ThreadWriter(new WorkerCalls<Reply>(worker, 'event store writer thread'));
  }

  async write(batch: AppendRequest[]): Promise<AppendOutcome[]> {
    const reply = await this.calls.call({ batch: packBatch(batch) });
    if ('outcomes' in reply) return unpackOutcomes(reply.outcomes);
    throw Object.assign(new Error(reply.failure.message), reply.failure.code ? { code: reply.failure.code } : {});
  }

  close(): Promise<void> {
    return this.calls.close({ close: true });
  }
}

/** A light batch: at most this many appends, each of one event, after a batch of at most as many appends (AdaptiveWriter). */
export const INLINE_MAX_APPENDS = 4;

/**
 * Light load inline, batches under load on the writer thread. At a light load nobody is waiting to
 * overlap with a commit, and the hop to the thread and back costs more than the commit: one
 * awaited append at a time ran at half the raw single-insert rate through the thread, and small
 * batches inline cut an append's p50 under load (figures: bench/README.md, "Inline and thread writes").
 * A light batch is up to INLINE_MAX_APPENDS appends of one event each, after another batch of at
 * most as many appends. Under load, batches grow past it (50 connections at full speed: tens of
 * appends each) and go to the thread, where a commit overlaps with the loop answering the one
 * before; a small batch right after a large one is a lull in the load and goes there too.
 *
 * An append of several events goes to the thread even alone: it is a conversation's turn or a
 * process manager's binding, whose commit holds more rows and whose caller is rarely a sender at
 * the door. Inline, those commits' fsyncs were the event loop's longest stretches at 500 webhook
 * deliveries/s (each binding appends a few events behind its delivery); on the thread they cut
 * the deliveries' p99 and the loop's longest delay (bench/README.md, "Inline and thread writes").
 * The thread may hold two batches at once (GroupCommitter); the inline connection waits for both.
 *
 * The inline connection never checkpoints (schema.ts, `never`): every `threadEvery`-th inline
 * batch in a row goes to the thread, whose commit checkpoints the WAL once it is past its
 * threshold and so lets SQLite restart it, even when every batch is a light one.
 */
export class AdaptiveWriter implements Writer {
  private previousSize = 0;
  /** batches on the thread not settled yet: the inline connection never writes beside them */
  private onThread = 0;
  /** batches written inline since the thread last wrote one */
  private inlineRun = 0;

  constructor(
    private readonly inline: Writer,
    private readonly thread: Writer,
    private readonly threadEvery = 64,
  ) {}

  write(batch: AppendRequest[]): Promise<AppendOutcome[]> {
    const light =
      batch.length <= INLINE_MAX_APPENDS &&
      this.previousSize <= INLINE_MAX_APPENDS &&
      batch.every((request) => request.events.length === 1);
    this.previousSize = batch.length;
    // Inline only while the thread is idle: beside a batch in flight there, the inline write would
    // wait on the file's write lock with the event loop blocked, and could overtake that batch.
    if (light && this.onThread === 0 && ++this.inlineRun < this.threadEvery) return this.inline.write(batch);
    this.inlineRun = 0;
    this.onThread++;
    return this.thread.write(batch).finally(() => this.onThread--);
  }

  close(): Promise<void> {
    return this.thread.close();
  }
}
