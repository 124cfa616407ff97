import type { DataSource } from 'typeorm';
import type { RecordedEvent } from '../../event-store/event-store.port';
import type { Position } from '../../event-store/position';
import { applyBatch, writeCheckpoint } from './apply-batch';
import { beginBulkBuild, endBulkBuild } from '../generations/bulk-build';
import type { Projection } from '../projection';

/**
 * Where a runner's batches are written: on its own connection (InlineApplier), or on a thread of
 * their own (thread-applier.ts). Either way one batch is one transaction with its checkpoint.
 */
export interface BatchApplier {
  /**
   * How long a runner lets events gather after applying a batch, unless someone waits for the
   * read model: fewer, larger transactions where a batch's cost is mostly per transaction.
   */
  readonly gatherMs: number;
  /** The events of a batch this projection handles, and where the batch ended: the new checkpoint. */
  apply(events: RecordedEvent[], last: Position): Promise<void>;
  /** Moves the checkpoint alone (batches that held nothing for this projection). */
  saveCheckpoint(position: Position): Promise<void>;
  /** A generation about to be built from the start: leave out what is cheaper built in one pass (bulk-build.ts). */
  beginBulk(): Promise<void>;
  /** Before the generation serves: build what the bulk mode left out; true if it was in it. */
  endBulk(): Promise<boolean>;
  close(): Promise<void>;
}

/** On the runner's writer connection, in the calling thread. */
export class InlineApplier implements BatchApplier {
  readonly gatherMs = 0;

  constructor(
    private readonly source: DataSource,
    private readonly projection: Projection,
  ) {}

  async apply(events: RecordedEvent[], last: Position): Promise<void> {
    await applyBatch(this.source, this.projection, events, last);
  }

  async saveCheckpoint(position: Position): Promise<void> {
    if (this.source.isInitialized) await writeCheckpoint(this.source, this.projection, position);
  }

  async beginBulk(): Promise<void> {
    await beginBulkBuild(this.source, this.projection);
  }

  endBulk(): Promise<boolean> {
    return endBulkBuild(this.source, this.projection);
  }

  async close(): Promise<void> {}
}

/** The events of a batch a projection has a handler for. */
export function handledEvents(projection: Projection, batch: RecordedEvent[]): RecordedEvent[] {
  return batch.filter((event) => projection.handles[event.type] !== undefined);
}
