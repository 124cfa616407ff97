import type { DataSource } from 'typeorm';
import type { EventStore } from '../event-store/event-store.port';
import type { Position } from '../event-store/position';
import { applyBatch, readCheckpoint } from './apply-batch';
import type { Projection } from './projection';

export interface CatchUpResult {
  position: Position;
  events: number;
}

/**
 * Applies the log to a read model from its checkpoint, in large batches, up to `until`
 * (inclusive) or the head. Used to build generations offline (rebuild, verify, benchmarks);
 * the live runner uses a subscription, with the same applyBatch.
 */
export async function catchUp(
  source: DataSource,
  projection: Projection,
  store: EventStore,
  options: { until?: Position; batchSize?: number } = {},
): Promise<CatchUpResult> {
  const batchSize = options.batchSize ?? 5000;
  let position = await readCheckpoint(source, projection.name);
  let events = 0;
  for (;;) {
    const batch = await store.readAll({ after: position, maxCount: batchSize });
    const until = options.until;
    const bounded = until === undefined ? batch : batch.filter((event) => event.position <= until);
    if (bounded.length === 0) return { position, events };
    position = await applyBatch(source, projection, bounded);
    events += bounded.length;
    if (bounded.length < batchSize) return { position, events };
  }
}
