import type { EventStore, RecordedEvent } from '../../event-store/event-store.port';
import type { Position } from '../../event-store/position';
import { applyAside } from '../apply/apply-batch';
import { errorText, type DeadLetter, type DeadLetterStore } from '../../subscriptions/dead-letters';
import type { Projection } from '../projection';
import type { ReadModelRegistry } from '../generations/read-model-registry';
import { isTransientFailure } from '../../subscriptions/transient-failure';

export interface RetryReport {
  name: string;
  resolved: DeadLetter[];
  /** still open, with the error of this try */
  failed: Array<DeadLetter & { retryError: string }>;
}

/**
 * Applies a read model's open dead letters (one, or all) to its active generation, each in a
 * transaction of its own, on the files or schemas directly as `rebuild` does: the ones that now
 * apply are resolved, the others stay open with their new error. The events apply after later
 * ones did; a handler that depends on order is made whole by `rebuild` instead.
 */
export async function retryProjectionDeadLetters(
  projection: Projection,
  store: EventStore,
  registry: ReadModelRegistry,
  position?: Position,
): Promise<RetryReport> {
  const { name, version } = projection;
  const letters = await registry.deadLetters.list({ kind: 'projection', name, position });
  const report: RetryReport = { name, resolved: [], failed: [] };
  if (letters.length === 0) return report;
  const active = await registry.active(name, version);
  if (!active) throw new Error(`${name} v${version} has no active generation to apply dead letters to`);
  const opened = await registry.storage.open(projection, active.file, 'apply');
  try {
    for (const letter of letters) {
      await retryOne(registry.deadLetters, store, letter, report, (event) =>
        applyAside(opened.writer, projection, event),
      );
    }
  } finally {
    await opened.close();
  }
  return report;
}

async function retryOne(
  deadLetters: DeadLetterStore,
  store: EventStore,
  letter: DeadLetter,
  report: RetryReport,
  apply: (event: RecordedEvent) => Promise<void>,
): Promise<void> {
  try {
    const event = (await store.readStream(letter.streamId)).find((e) => e.id === letter.eventId);
    if (!event) throw new Error(`event ${letter.eventId} is no longer in stream ${letter.streamId}`);
    await apply(event);
  } catch (error) {
    if (isTransientFailure(error)) throw error;
    await deadLetters.retryFailed(letter.kind, letter.name, letter.position, error);
    report.failed.push({ ...letter, retryError: errorText(error) });
    return;
  }
  await deadLetters.resolve(letter.kind, letter.name, letter.position);
  report.resolved.push(letter);
}
