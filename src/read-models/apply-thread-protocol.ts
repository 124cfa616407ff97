import type { Position } from '../event-store/position';
import type { PortableEvent } from './portable-events';
import type { Projection } from './projection';

/*
 * What the event loop and the apply thread (apply-thread.ts) say to each other, in a file of its
 * own: the thread's side and the caller's side (thread-applier.ts) both import it, not each other.
 */

export type ApplyRequest = { id: number; file: string } & (
  | { op: 'open'; name: string }
  | { op: 'apply'; name: string; events: PortableEvent[]; last: Position }
  | { op: 'checkpoint'; name: string; position: Position }
  | { op: 'close' }
);

/** `transient`: the failure is the database's, not the events' (transient-failure.ts): codes do not cross threads. */
export type ApplyReply = { id: number } | { id: number; failure: string; transient: boolean };

/**
 * Where the thread finds the projections it applies: functions do not cross threads, so it loads
 * the module that defines them, as this thread did.
 */
export interface ProjectionCatalog {
  /** a module path without extension (the build's .js, or the .ts source under tests) */
  module: string;
  /** the export holding a Projection[] */
  exportName: string;
}

export function catalogProjections(catalog: ProjectionCatalog): Projection[] {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const list = (require(catalog.module) as Record<string, unknown>)[catalog.exportName];
  if (!Array.isArray(list)) throw new Error(`${catalog.module} exports no projection list named ${catalog.exportName}`);
  return list as Projection[];
}
