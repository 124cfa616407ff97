import type { EventStore } from '../event-store/event-store.port';
import { START } from '../event-store/position';
import type { Projection } from './projection';
import type { ReadModelRegistry } from './generations/read-model-registry';

export interface GenerationStatus {
  name: string;
  version: number;
  generation: number;
  status: string;
  /** true when this generation belongs to the version the code defines now */
  current: boolean;
  position: string;
  lagEvents: number | null;
  file: string;
}

/** Every generation the registry knows, with where each has got to and how far behind it is. */
export async function readModelStatus(
  projections: Projection[],
  store: EventStore,
  registry: ReadModelRegistry,
): Promise<GenerationStatus[]> {
  const versions = new Map(projections.map((p) => [p.name, p.version]));
  const rows = await registry.all();
  const known = new Set(rows.map((r) => r.name));
  const out: GenerationStatus[] = [];
  for (const row of rows) {
    const position = await registry.storage.checkpointOf(row.name, row.file);
    out.push({
      name: row.name,
      version: row.version,
      generation: row.generation,
      status: row.status,
      current: versions.get(row.name) === row.version,
      position,
      lagEvents: await store.countAfter(position as never),
      file: row.file,
    });
  }
  for (const p of projections) {
    if (!known.has(p.name)) {
      out.push({
        name: p.name,
        version: p.version,
        generation: 0,
        status: 'never built',
        current: true,
        position: START,
        lagEvents: await store.countAfter(START),
        file: '',
      });
    }
  }
  return out;
}
