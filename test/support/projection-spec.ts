import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { DataSource } from 'typeorm';
import type { RecordedEvent } from '../../src/event-store/event-store.port';
import { positionOf } from '../../src/event-store/position';
import { applyBatch } from '../../src/read-models/apply/apply-batch';
import { openReadModel } from '../../src/read-models/generations/open-read-model';
import type { Projection } from '../../src/read-models/projection';

export interface GivenEvent {
  stream: string;
  type: string;
  data: unknown;
}

/** The read model a projection spec checks: a fresh generation file, and the events applied so far. */
export interface ProjectedReadModel {
  source: DataSource;
  /** Applies more events, at the log positions after the last ones, in one batch as the runner would. */
  given(...events: GivenEvent[]): Promise<void>;
  /** Rows as SQL reads them (snake_case columns). */
  rows<Row = Record<string, unknown>>(sql: string, ...params: unknown[]): Promise<Row[]>;
  close(): Promise<void>;
}

const at = '2026-05-01T12:00:00.000Z';

/** Opens a new SQLite generation of `projection` in a temp dir (removed on close). */
export async function projectedReadModel(projection: Projection): Promise<ProjectedReadModel> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `parley-${projection.name}-`));
  const source = await openReadModel(projection, path.join(dir, `${projection.name}.g1.sqlite`));
  const revisions = new Map<string, bigint>();
  let position = 0n;
  return {
    source,
    async given(...events) {
      const recorded: RecordedEvent[] = events.map(({ stream, type, data }) => {
        const revision = (revisions.get(stream) ?? -1n) + 1n;
        revisions.set(stream, revision);
        position += 1n;
        return {
          id: `event-${position}`,
          streamId: stream,
          revision,
          position: positionOf(position),
          type,
          data,
          metadata: { schemaVersion: 1, actor: 'test', correlationId: 'c', causationId: null, occurredAt: at },
        };
      });
      await applyBatch(source, projection, recorded);
    },
    rows: (sql, ...params) => source.query(sql, params),
    async close() {
      await source.destroy();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
