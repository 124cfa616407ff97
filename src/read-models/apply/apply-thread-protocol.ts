import type { Position } from '../../event-store/position';
import type { PortableEvent } from './portable-events';
import type { Projection } from '../projection';

/*
 * What the event loop and the apply thread (apply-thread.ts) say to each other, in a file of its
 * own: the thread's side and the caller's side (thread-applier.ts) both import it, not each other.
 */

export type ApplyRequest =
  | ({ id: number; file: string } & (
      | { op: 'open'; name: string }
      | { op: 'checkpoint'; name: string; position: Position }
      | { op: 'bulk-begin' | 'bulk-end'; name: string }
      | { op: 'close' }
    ))
  | ApplyBatches;

/**
 * The batches of every runner that applied in one turn of the event loop, in one message: each
 * event once (runners share a batch of the log), parsed once on the thread, each part naming its
 * events by index.
 */
export interface ApplyBatches {
  id: number;
  op: 'apply';
  events: PortableEvent[];
  parts: ApplyPart[];
}

/** One runner's batch: one transaction of its file, with its checkpoint at `last`. */
export interface ApplyPart {
  name: string;
  file: string;
  /** its events, as indices into the message's `events`, in log order */
  indices: number[];
  last: Position;
}

/** `transient`: the failure is the database's, not the events' (subscriptions/transient-failure.ts): codes do not cross threads. */
export interface ApplyFailure {
  failure: string;
  transient: boolean;
}

/** A batch message's reply carries one outcome per part, null when it committed. */
export type ApplyReply =
  { id: number; done?: boolean } | ({ id: number } & ApplyFailure) | { id: number; parts: Array<ApplyFailure | null> };

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
