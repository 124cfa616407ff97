/**
 * The writer thread: owns the connection that appends, so a commit's fsync (and the inserts'
 * index work) happens beside the event loop instead of on it. Messages in: { id, batch } and
 * { close: true }; out: { ready, threadId } (its kernel task id, so that it keeps the event loop's
 * priority: helper-threads.ts), { id, outcomes } or { id, failure } when the transaction failed.
 * Batches and outcomes travel packed (writer-wire.ts).
 */
import { parentPort, workerData } from 'node:worker_threads';
import Database from 'better-sqlite3';
import { currentThreadId } from '../../platform/threads/thread-priority';
import { BatchWriter } from './batch-writer';
import { configure, type CheckpointMode, type SyncMode } from './schema';
import { packOutcomes, unpackBatch, type WireBatch } from './writer-wire';

export interface WriterReady {
  ready: true;
  threadId: number | null;
}

const { file, sync, checkpoints } = workerData as { file: string; sync: SyncMode; checkpoints: CheckpointMode };
const port = parentPort!;
const db = new Database(file);
configure(db, sync, checkpoints);
const writer = new BatchWriter(db);

port.on('message', (message: { id: number; batch: WireBatch } | { close: true }) => {
  if ('close' in message) {
    db.close();
    port.close();
    return;
  }
  try {
    port.postMessage({ id: message.id, outcomes: packOutcomes(writer.write(unpackBatch(message.batch))) });
  } catch (error) {
    const { message: text, code } = error as { message?: string; code?: unknown };
    port.postMessage({
      id: message.id,
      failure: { message: text ?? String(error), code: typeof code === 'string' ? code : undefined },
    });
  }
});
port.postMessage({ ready: true, threadId: currentThreadId() } satisfies WriterReady);
