import type { DataSource } from 'typeorm';
import type { EventStore } from '../../event-store/event-store.port';
import type { Position } from '../../event-store/position';
import type { RecordedEvent } from '../../event-store/event-store.port';
import { applyBatch, readCheckpoint, writeCheckpoint } from '../apply/apply-batch';
import type { Projection } from '../projection';
import { applyEventByEvent } from '../../subscriptions/quarantine';
import { isTransientFailure } from '../../subscriptions/transient-failure';

/** Told of an event the projection cannot apply, before the checkpoint passes it. */
export type OnPoison = (event: RecordedEvent, error: unknown, attempts: number) => Promise<void>;

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
  /** `onPoison`: a batch that fails is applied event by event and the events that cannot apply are passed to it, then skipped; without it, the failure is thrown */
  options: { until?: Position; batchSize?: number; onPoison?: OnPoison } = {},
): Promise<CatchUpResult> {
  const batchSize = options.batchSize ?? 5000;
  let position = await readCheckpoint(source, projection.name);
  let events = 0;
  for (;;) {
    const batch = await store.readAll({ after: position, maxCount: batchSize });
    const until = options.until;
    const bounded = until === undefined ? batch : batch.filter((event) => event.position <= until);
    if (bounded.length === 0) return { position, events };
    position = await applyOrQuarantine(source, projection, bounded, options.onPoison);
    events += bounded.length;
    if (bounded.length < batchSize) return { position, events };
  }
}

async function applyOrQuarantine(
  source: DataSource,
  projection: Projection,
  events: RecordedEvent[],
  onPoison: OnPoison | undefined,
): Promise<Position> {
  try {
    return await applyBatch(source, projection, events);
  } catch (error) {
    if (!onPoison || isTransientFailure(error)) throw error;
    const last = events[events.length - 1].position;
    await applyEventByEvent(
      events.filter((event) => projection.handles[event.type] !== undefined),
      last,
      {
        applyOne: async (event) => void (await applyBatch(source, projection, [event])),
        saveCheckpoint: (position) => writeCheckpoint(source, projection, position),
        deadLetter: onPoison,
      },
    );
    return last;
  }
}
