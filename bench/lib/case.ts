import type { BenchContext } from './context';

/** What one case measured. `figure` is null when the case could not run (e.g. the peer is missing). */
export interface Result {
  figure: number | null;
  unit: string;
  /** Every run's figure, in order: the spread tells how far to trust the median. */
  runs?: number[];
  /** Printed beside the figure: conditions a reader must know to compare it. */
  note?: string;
  /** A table of its own printed under the report's (a breakdown the one figure sums up), kept in the JSON. */
  table?: string;
  /** Extra numbers kept in the JSON (batch sizes, µs per call, ...). */
  details?: Record<string, unknown>;
}

export interface BenchCase {
  /** Stable dotted name: `group.what.how`; results and targets refer to it. */
  name: string;
  run(ctx: BenchContext): Promise<Result>;
}
