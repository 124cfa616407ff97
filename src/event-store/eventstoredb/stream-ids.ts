import type { StreamRevision } from '../event-store.port';

/** What is known of one stream: every event id up to `through` (null: the stream had no events). */
export interface KnownIds {
  readonly through: StreamRevision | null;
  readonly ids: ReadonlyMap<string, StreamRevision>;
}

export const NOTHING_KNOWN: KnownIds = { through: null, ids: new Map() };

/** Reads a stream forwards from a revision to its end: [] when there is nothing (or no stream). */
export type ReadIdsFrom = (
  stream: string,
  fromRevision: StreamRevision,
) => Promise<Array<{ id: string; revision: StreamRevision }>>;

interface Entry {
  through: StreamRevision | null;
  ids: Map<string, StreamRevision>;
}

/**
 * The event ids of recently used streams, so an append can tell a retry (or a reused id) from a
 * fresh write without reading the whole stream each time: the server has no index by event id,
 * and its own idempotency is best effort (an in-memory cache). Streams only grow, so an entry is
 * brought up to date by reading the events after `through`. Bounded: the least recently used
 * streams are forgotten first, and are read again in full when next appended to.
 *
 * Deleting or truncating a stream is outside what the platform does; ids of events removed that
 * way would still count as stored here until the entry is forgotten.
 */
export class StreamIdIndex {
  private readonly streams = new Map<string, Entry>();
  private size = 0;

  constructor(
    private readonly read: ReadIdsFrom,
    private readonly maxIds = 200_000,
  ) {}

  /** What this process knows without asking the server (possibly behind the stream). */
  peek(stream: string): KnownIds | undefined {
    const entry = this.streams.get(stream);
    if (entry) this.touch(stream, entry);
    return entry;
  }

  /** Brings the entry up to the stream's current end. */
  async refresh(stream: string): Promise<KnownIds> {
    const through = this.streams.get(stream)?.through ?? null;
    const from = through === null ? 0n : through + 1n;
    const events = await this.read(stream, from);
    return this.learn(stream, from, events);
  }

  /** Events read or written at consecutive revisions starting at `from`. */
  learn(
    stream: string,
    from: StreamRevision,
    events: ReadonlyArray<{ id: string; revision: StreamRevision }>,
  ): KnownIds {
    let entry = this.streams.get(stream);
    if (!entry) {
      entry = { through: null, ids: new Map() };
      this.streams.set(stream, entry);
    }
    for (const { id, revision } of events) {
      if (!entry.ids.has(id)) this.size++;
      entry.ids.set(id, revision);
    }
    // `through` only moves over a range with no gap: the events start at or before its next revision.
    const next = entry.through === null ? 0n : entry.through + 1n;
    const last = events.length > 0 ? events[events.length - 1].revision : null;
    if (from <= next && last !== null && (entry.through === null || last > entry.through)) entry.through = last;
    this.touch(stream, entry);
    this.evict(stream);
    return entry;
  }

  /** An append this process wrote: its ids end at `lastRevision`. */
  recordAppend(stream: string, ids: readonly string[], lastRevision: StreamRevision): void {
    const first = lastRevision - BigInt(ids.length) + 1n;
    this.learn(
      stream,
      first,
      ids.map((id, i) => ({ id, revision: first + BigInt(i) })),
    );
  }

  get trackedIds(): number {
    return this.size;
  }

  private touch(stream: string, entry: Entry): void {
    this.streams.delete(stream);
    this.streams.set(stream, entry);
  }

  private evict(keep: string): void {
    for (const [stream, entry] of this.streams) {
      if (this.size <= this.maxIds) return;
      if (stream === keep) continue;
      this.streams.delete(stream);
      this.size -= entry.ids.size;
    }
  }
}
