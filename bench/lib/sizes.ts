/** How much work each case does. Full sizes follow the brief; --quick is a smoke run (< ~60 s). */
export interface Sizes {
  /** Runs per case whose median is reported. */
  runs: number;
  /** Runs of the TypeORM projection rebuild, the one slow case. */
  rebuildRuns: number;
  /** Runs of diagnostic cases (no target; they explain a figure). */
  diagnosticRuns: number;
  /** Raw insert, 100 rows per transaction. */
  ceilingBatched: number;
  /** Raw insert, one row per transaction (an fsync each). */
  ceilingSingle: number;
  /** Store appends with 64 in flight. */
  storeInFlight: number;
  /** Store appends, one writer awaiting each. */
  storeSingle: number;
  /** The shared log read by the scan, readAll, subscription and projection cases. */
  logEvents: number;
  /** Peer appends, one event per call (it does ~370/s). */
  peerAppends: number;
  /** Peer log read back in batches of 1,000. */
  peerLog: number;
  /** Emmett's PostgreSQL store's appends, 64 in flight (a transaction each: slower than ours). */
  postgresPeerAppends: number;
}

export const FULL: Sizes = {
  runs: 3,
  rebuildRuns: 3,
  diagnosticRuns: 1,
  ceilingBatched: 100_000,
  ceilingSingle: 20_000,
  storeInFlight: 100_000,
  storeSingle: 20_000,
  logEvents: 1_000_000,
  peerAppends: 2_000,
  peerLog: 20_000,
  postgresPeerAppends: 20_000,
};

export const QUICK: Sizes = {
  runs: 3,
  rebuildRuns: 1,
  diagnosticRuns: 1,
  ceilingBatched: 10_000,
  ceilingSingle: 2_000,
  storeInFlight: 10_000,
  storeSingle: 2_000,
  logEvents: 50_000,
  peerAppends: 200,
  peerLog: 2_000,
  postgresPeerAppends: 2_000,
};
