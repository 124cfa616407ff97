/**
 * The apply thread: writes the SQLite read models' batches on connections of its own, so the
 * handlers, the inserts (full-text indexing most of all) and the commits run beside the event loop
 * instead of on it. The main thread keeps reading the same files through its read-only
 * connections (WAL: readers never wait for this writer). Messages in: Request; out: { id } when
 * done, { id, failure } when the transaction failed and rolled back.
 */
import { parentPort, workerData } from 'node:worker_threads';
import type { DataSource } from 'typeorm';
import type { RecordedEvent } from '../../event-store/event-store.port';
import { applyBatch, writeCheckpoint } from './apply-batch';
import { beginBulkBuild, endBulkBuild, resumeBulkBuild } from '../generations/bulk-build';
import { lowerThisThreadsPriority } from '../../platform/threads/thread-priority';
import { openReadModel } from '../generations/open-read-model';
import { fromPortable } from './portable-events';
import type { Projection } from '../projection';
import {
  catalogProjections,
  type ApplyBatches,
  type ApplyFailure,
  type ApplyReply,
  type ApplyRequest,
  type ProjectionCatalog,
} from './apply-thread-protocol';
import { isTransientFailure } from '../../subscriptions/transient-failure';

const APPLY_THREAD_NICENESS = 10;
const port = parentPort!;
// Background work: the event loop's requests come first. Each message that woke this thread at the
// same priority let the kernel preempt the event loop for the whole batch.
lowerThisThreadsPriority(APPLY_THREAD_NICENESS);
const projections = new Map(
  catalogProjections(workerData as ProjectionCatalog).map((projection) => [projection.name, projection]),
);
/** Open generations by file; opened on first use, so a restarted thread picks up where its runners are. */
const sources = new Map<string, Promise<DataSource>>();
/** Each file's requests one after another. */
const queues = new Map<string, Promise<unknown>>();

function projectionNamed(name: string): Projection {
  const projection = projections.get(name);
  if (!projection) throw new Error(`the apply thread has no projection named ${name}`);
  return projection;
}

function sourceFor(file: string, projection: Projection): Promise<DataSource> {
  let source = sources.get(file);
  if (!source) {
    source = openReadModel(projection, file).then(async (opened) => {
      await resumeBulkBuild(opened);
      return opened;
    });
    sources.set(file, source);
    source.catch(() => sources.delete(file));
  }
  return source;
}

/** Runs `work` after every earlier request of this file: a checkpoint never lands inside a batch's transaction. */
function onFile<T>(file: string, work: () => Promise<T>): Promise<T> {
  const queued = (queues.get(file) ?? Promise.resolve()).catch(() => undefined).then(work);
  queues.set(file, queued);
  // the queue outlives no request: the last one removes it
  void queued
    .catch(() => undefined)
    .then(() => {
      if (queues.get(file) === queued) queues.delete(file);
    });
  return queued;
}

function failureOf(error: unknown): ApplyFailure {
  return { failure: error instanceof Error ? error.message : String(error), transient: isTransientFailure(error) };
}

/** What the request did, when it has something to say (bulk-end: whether the generation was in the bulk mode). */
async function handle(request: Exclude<ApplyRequest, ApplyBatches>): Promise<boolean | undefined> {
  if (request.op === 'close') {
    const source = sources.get(request.file);
    sources.delete(request.file);
    const opened = await source?.catch(() => null);
    if (opened?.isInitialized) await opened.destroy();
    return;
  }
  const projection = projectionNamed(request.name);
  const source = await sourceFor(request.file, projection);
  if (request.op === 'checkpoint') await writeCheckpoint(source, projection, request.position);
  if (request.op === 'bulk-begin') await beginBulkBuild(source, projection);
  if (request.op === 'bulk-end') return endBulkBuild(source, projection);
}

/**
 * Every part of the message in its file's queue, each event parsed once whatever the number of
 * parts naming it (on first use: a row that does not parse fails only the parts that name it).
 * One reply when all are done, so runners that share a batch of the log take their next one
 * together, and it crosses once again.
 */
function applyBatches(request: ApplyBatches): Promise<Array<ApplyFailure | null>> {
  const parsed: Array<RecordedEvent | undefined> = new Array(request.events.length);
  const eventAt = (i: number) => (parsed[i] ??= fromPortable(request.events[i]));
  return Promise.all(
    request.parts.map((part) =>
      onFile(part.file, async () => {
        const projection = projectionNamed(part.name);
        const source = await sourceFor(part.file, projection);
        await applyBatch(source, projection, part.indices.map(eventAt), part.last);
      }).then(() => null, failureOf),
    ),
  );
}

port.on('message', (request: ApplyRequest | { op: 'exit' }) => {
  if (request.op === 'exit') {
    void Promise.allSettled([...queues.values()])
      .then(() => Promise.allSettled([...sources.values()].map(async (source) => (await source).destroy())))
      .finally(() => port.close());
    return;
  }
  if (request.op === 'apply') {
    void applyBatches(request).then((parts) => port.postMessage({ id: request.id, parts } satisfies ApplyReply));
    return;
  }
  onFile(request.file, () => handle(request)).then(
    (done) => port.postMessage({ id: request.id, done } satisfies ApplyReply),
    (error: unknown) => port.postMessage({ id: request.id, ...failureOf(error) } satisfies ApplyReply),
  );
});
