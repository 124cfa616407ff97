import path from 'node:path';
import type Database from 'better-sqlite3';
import { keepThreadPriority } from '../../platform/threads/helper-threads';
import { startReadyWorker } from '../../platform/threads/start-worker';
import { WorkerCalls } from '../../platform/threads/worker-calls';
import { BatchWriter, type AppendOutcome, type AppendRequest } from './batch-writer';
import type { CheckpointMode, SyncMode } from './schema';
import type { WriterReady } from './writer-thread';

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

type Reply = { id: number; outcomes: AppendOutcome[] } | { id: number; failure: { message: string; code?: string } };

/**
 * On its own connection in a worker thread (writer-thread.ts): the event loop goes on serving
 * requests and queueing the next batch while a commit is synced. If the thread dies, every write
 * waiting on it and every later one fails with the reason; nothing is retried behind the caller's back.
 */
export class ThreadWriter implements Writer {
  private constructor(private readonly calls: WorkerCalls<Reply>) {}

  static async start(file: string, sync: SyncMode, checkpoints: CheckpointMode = 'auto'): Promise<ThreadWriter> {
    const { worker, ready } = await startReadyWorker<WriterReady>(path.join(__dirname, 'writer-thread'), { workerData: { file, sync, checkpoints } });
    // every append's commit waits on this thread: it stays at the event loop's priority
    worker.once('exit', keepThreadPriority(ready.threadId));
    return new ThreadWriter(new WorkerCalls<Reply>(worker, 'event store writer thread'));
  }

  async write(batch: AppendRequest[]): Promise<AppendOutcome[]> {
    const reply = await this.calls.call({ batch });
    if ('outcomes' in reply) return reply.outcomes;
    throw Object.assign(new Error(reply.failure.message), reply.failure.code ? { code: reply.failure.code } : {});
  }

  close(): Promise<void> {
    return this.calls.close({ close: true });
  }
}

/**
 * Appends from a lone sequential writer on this thread, batches on the writer thread. When each
 * batch holds one append, nobody else is waiting to overlap with its fsync, and the hop to the
 * thread and back costs about as much as the fsync (one awaited append at a time ran at half the
 * raw single-insert rate through the thread). A single append right after a larger batch is a
 * lull under load, not a lone writer: it still goes to the thread, keeping the loop free.
 * The thread may hold two batches at once (GroupCommitter); the inline connection waits for both.
 *
 * The inline connection never checkpoints (schema.ts, `never`): every `threadEvery`-th lone
 * append in a row goes to the thread, whose commit checkpoints the WAL once it is past its
 * threshold and so lets SQLite restart it, even when every append is a lone one.
 */
export class AdaptiveWriter implements Writer {
  private previousSize = 0;
  /** batches on the thread not settled yet: the inline connection never writes beside them */
  private onThread = 0;
  /** lone appends written inline since the thread last wrote one */
  private inlineRun = 0;

  constructor(
    private readonly inline: Writer,
    private readonly thread: Writer,
    private readonly threadEvery = 64,
  ) {}

  write(batch: AppendRequest[]): Promise<AppendOutcome[]> {
    const lone = batch.length === 1 && this.previousSize <= 1;
    this.previousSize = batch.length;
    // Inline only while the thread is idle: beside a batch in flight there, the inline write would
    // wait on the file's write lock with the event loop blocked, and could overtake that batch.
    if (lone && this.onThread === 0 && ++this.inlineRun < this.threadEvery) return this.inline.write(batch);
    this.inlineRun = 0;
    this.onThread++;
    return this.thread.write(batch).finally(() => this.onThread--);
  }

  close(): Promise<void> {
    return this.thread.close();
  }
}
