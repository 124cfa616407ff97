/**
 * The writer thread: owns the connection that appends, so a commit's fsync (and the inserts'
 * index work) happens beside the event loop instead of on it. Messages in: { id, batch } and
 * { close: true }; out: { ready, threadId } (its kernel task id, so that it keeps the event loop's
 * priority: helper-threads.ts), { id, outcomes } or { id, failure } when the transaction failed.
 * Batches and outcomes travel packed (writer-wire.ts).
 *
 * The batches that wait on the port when a commit begins share it (shared-commit.ts): while a
 * commit has stalled, the event loop hands batches over without waiting for it to settle
 * (GroupCommitter's stall policy), and an append then waits for the commit under way and its own
 * instead of for each batch handed over before it (bench/README.md, "External events' tail").
 */
import { parentPort, receiveMessageOnPort, workerData } from 'node:worker_threads';
import Database from 'better-sqlite3';
import { currentThreadId } from '../../platform/threads/thread-priority';
import { BatchWriter } from './batch-writer';
import { configure, type CheckpointMode, type SyncMode } from './schema';
import { writeShared } from './shared-commit';
import { packOutcomes, unpackBatch, type WireBatch } from './writer-wire';

export interface WriterReady {
  ready: true;
  threadId: number | null;
}

type Message = { id: number; batch: WireBatch } | { close: true };

const { file, sync, checkpoints } = workerData as { file: string; sync: SyncMode; checkpoints: CheckpointMode };
const port = parentPort!;
const db = new Database(file);
configure(db, sync, checkpoints);
const writer = new BatchWriter(db);

/**
 * One reply for every batch of the commit (worker-calls.ts, `replies`): the event loop settles them
 * in one turn, so the subscriptions they wake read the commit's events in one batch. A reply each
 * woke them once per batch, and each woken read model and process manager ran once per batch.
 */
function write(batches: Array<{ id: number; batch: WireBatch }>): void {
  let replies: object[];
  try {
    const outcomes = writeShared(
      writer,
      batches.map((message) => unpackBatch(message.batch)),
    );
    replies = batches.map(({ id }, i) => ({ id, outcomes: packOutcomes(outcomes[i]) }));
  } catch (error) {
    const { message: text, code } = error as { message?: string; code?: unknown };
    const failure = { message: text ?? String(error), code: typeof code === 'string' ? code : undefined };
    replies = batches.map(({ id }) => ({ id, failure }));
  }
  port.postMessage(replies.length === 1 ? replies[0] : { replies });
}

port.on('message', (first: Message) => {
  const messages = [first];
  for (let next = receiveMessageOnPort(port); next; next = receiveMessageOnPort(port))
    messages.push(next.message as Message);
  // a close comes after every batch the event loop handed over (it drains first)
  const batches = messages.filter((message): message is { id: number; batch: WireBatch } => 'batch' in message);
  if (batches.length > 0) write(batches);
  if (messages.some((message) => 'close' in message)) {
    db.close();
    port.close();
  }
});
port.postMessage({ ready: true, threadId: currentThreadId() } satisfies WriterReady);
