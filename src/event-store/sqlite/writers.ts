import path from 'node:path';
import type { Worker } from 'node:worker_threads';
import type Database from 'better-sqlite3';
import { startWorker } from '../../platform/threads/start-worker';
import { BatchWriter, type AppendOutcome, type AppendRequest } from './batch-writer';
import type { SyncMode } from './schema';

/** Where a batch of appends is written: resolves with one outcome per append, rejects when nothing was stored. */
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

interface Pending {
  resolve(outcomes: AppendOutcome[]): void;
  reject(error: Error): void;
}

type Reply = { ready: true } | { id: number; outcomes: AppendOutcome[] } | { id: number; failure: { message: string; code?: string } };

/**
 * On its own connection in a worker thread (writer-thread.ts): the event loop goes on serving
 * requests and queueing the next batch while a commit is synced. If the thread dies, every write
 * waiting on it and every later one fails with the reason; nothing is retried behind the caller's back.
 */
export class ThreadWriter implements Writer {
  private readonly pending = new Map<number, Pending>();
  private nextId = 0;
  private broken: Error | null = null;
  private readonly exited: Promise<void>;

  private constructor(private readonly worker: Worker) {
    this.exited = new Promise((resolve) => worker.once('exit', () => resolve()));
    worker.on('message', (reply: Reply) => {
      if ('ready' in reply) return;
      const waiting = this.pending.get(reply.id);
      if (!waiting) return;
      this.settled(reply.id);
      if ('outcomes' in reply) waiting.resolve(reply.outcomes);
      else waiting.reject(Object.assign(new Error(reply.failure.message), reply.failure.code ? { code: reply.failure.code } : {}));
    });
    worker.on('error', (error) => this.fail(error));
    worker.on('exit', (code) => this.fail(new Error(`the event store writer thread exited (code ${code})`)));
  }

  static async start(file: string, sync: SyncMode): Promise<ThreadWriter> {
    const worker = startWorker(path.join(__dirname, 'writer-thread'), { workerData: { file, sync } });
    await new Promise<void>((resolve, reject) => {
      const onError = (error: Error) => reject(error);
      worker.once('error', onError);
      worker.once('message', () => {
        worker.off('error', onError);
        resolve();
      });
    });
    const writer = new ThreadWriter(worker);
    // An idle writer never keeps the process alive; one with writes in flight does.
    worker.unref();
    return writer;
  }

  write(batch: AppendRequest[]): Promise<AppendOutcome[]> {
    if (this.broken) return Promise.reject(this.broken);
    const id = ++this.nextId;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      if (this.pending.size === 1) this.worker.ref();
      this.worker.postMessage({ id, batch });
    });
  }

  async close(): Promise<void> {
    if (!this.broken) {
      // waiting for the thread to finish must keep the process alive
      this.worker.ref();
      this.worker.postMessage({ close: true });
      this.broken = new Error('the event store writer is closed');
    }
    await this.exited;
  }

  private settled(id: number): void {
    this.pending.delete(id);
    if (this.pending.size === 0) this.worker.unref();
  }

  private fail(error: Error): void {
    this.broken ??= error;
    for (const [id, waiting] of [...this.pending]) {
      this.settled(id);
      waiting.reject(error);
    }
  }
}

/**
 * Appends from a lone sequential writer on this thread, batches on the writer thread. When each
 * batch holds one append, nobody else is waiting to overlap with its fsync, and the hop to the
 * thread and back costs about as much as the fsync (one awaited append at a time ran at half the
 * raw single-insert rate through the thread). A single append right after a larger batch is a
 * lull under load, not a lone writer: it still goes to the thread, keeping the loop free.
 * Batches are written one at a time (GroupCommitter), so the two connections never contend.
 */
export class AdaptiveWriter implements Writer {
  private previousSize = 0;

  constructor(
    private readonly inline: InlineWriter,
    private readonly thread: ThreadWriter,
  ) {}

  write(batch: AppendRequest[]): Promise<AppendOutcome[]> {
    const lone = batch.length === 1 && this.previousSize <= 1;
    this.previousSize = batch.length;
    return lone ? this.inline.write(batch) : this.thread.write(batch);
  }

  close(): Promise<void> {
    return this.thread.close();
  }
}
