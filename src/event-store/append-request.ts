import type { ExpectedRevision } from './event-store.port';

/** An event with its data and metadata already serialised, in the caller's turn. */
export interface SerializedEvent {
  id: string;
  type: string;
  data: string;
  metadata: string;
}

/** One append of a group commit: plain data (the SQLite store sends it to its writer thread). */
export interface AppendRequest {
  streamId: string;
  events: SerializedEvent[];
  expected: ExpectedRevision;
}
