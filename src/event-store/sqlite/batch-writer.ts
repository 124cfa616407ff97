import type Database from 'better-sqlite3';
import { expectedRevisionMatches } from '../errors';
import type { AppendRequest, SerializedEvent } from '../append-request';

export type { AppendRequest, SerializedEvent } from '../append-request';

/**
 * What became of one append: plain data too. The committer turns refusals into the port's typed
 * errors on the caller's side.
 */
export type AppendOutcome =
  /** `repeat`: a retry of an append already stored, answered with what it answered then (nothing written) */
  | { ok: true; revision: number; globalPosition: number; repeat: boolean }
  | { ok: false; refusal: 'wrong-revision'; actual: number | null }
  | { ok: false; refusal: 'idempotency-mismatch'; eventId: string }
  | { ok: false; refusal: 'empty' }
  | { ok: false; refusal: 'failed'; message: string; code?: string };

interface StoredId {
  stream_id: string;
  revision: number;
  global_position: number;
}

/**
 * Writes a batch of appends in one IMMEDIATE transaction, each append in its own savepoint: an
 * append SQLite refuses, or whose expected revision does not match, is undone alone and the
 * others commit. Throws only when the transaction itself fails (disk, lock timeout): then nothing
 * of the batch is stored. Synchronous, so it runs the same on the main thread or the writer thread.
 */
export class BatchWriter {
  private readonly lastRevision: Database.Statement<[string], { revision: number }>;
  private readonly findId: Database.Statement<[string], StoredId>;
  private readonly insert: Database.Statement<[string, number, string, string, string, string]>;
  private readonly transaction: (batch: AppendRequest[]) => AppendOutcome[];

  constructor(db: Database.Database) {
    this.lastRevision = db.prepare('SELECT revision FROM events WHERE stream_id = ? ORDER BY revision DESC LIMIT 1');
    this.findId = db.prepare('SELECT stream_id, revision, global_position FROM events WHERE event_id = ?');
    this.insert = db.prepare(
      'INSERT INTO events (stream_id, revision, event_id, type, data, metadata) VALUES (?, ?, ?, ?, ?, ?)',
    );
    const one = db.transaction((request: AppendRequest) => this.applyOne(request));
    const all = db.transaction((batch: AppendRequest[]) =>
      batch.map((request): AppendOutcome => {
        try {
          return one(request);
        } catch (error) {
          const { message, code } = error as { message?: string; code?: unknown };
          return {
            ok: false,
            refusal: 'failed',
            message: message ?? String(error),
            ...(typeof code === 'string' ? { code } : {}),
          };
        }
      }),
    );
    // IMMEDIATE takes the write lock up front: no deadlock upgrading a read lock when another
    // process shares the file.
    this.transaction = (batch) => all.immediate(batch);
  }

  write(batch: AppendRequest[]): AppendOutcome[] {
    return this.transaction(batch);
  }

  private applyOne({ streamId, events, expected }: AppendRequest): AppendOutcome {
    const retry = this.matchRetry(streamId, events);
    if (retry) return retry;
    const row = this.lastRevision.get(streamId);
    const actual = row === undefined ? null : row.revision;
    if (!expectedRevisionMatches(expected, actual === null ? null : BigInt(actual)))
      return { ok: false, refusal: 'wrong-revision', actual };
    let revision = actual ?? -1;
    let globalPosition = 0;
    for (const event of events) {
      revision++;
      globalPosition = Number(
        this.insert.run(streamId, revision, event.id, event.type, event.data, event.metadata).lastInsertRowid,
      );
    }
    return { ok: true, revision, globalPosition, repeat: false };
  }

  /**
   * An append whose ids are all stored, consecutively, in this stream is a retry of that append:
   * answer what it answered. Some ids stored and some not (or stored elsewhere) is a caller bug.
   * Returns undefined when none of the ids is stored: a fresh append.
   */
  private matchRetry(streamId: string, events: SerializedEvent[]): AppendOutcome | undefined {
    if (events.length === 0) return { ok: false, refusal: 'empty' };
    const seen = new Set<string>();
    let first: StoredId | undefined;
    let last: StoredId | undefined;
    for (let i = 0; i < events.length; i++) {
      const id = events[i].id;
      if (seen.has(id)) return { ok: false, refusal: 'idempotency-mismatch', eventId: id };
      seen.add(id);
      const stored = this.findId.get(id);
      if (i === 0) first = stored;
      const consistent =
        first === undefined
          ? stored === undefined
          : stored !== undefined && stored.stream_id === streamId && stored.revision === first.revision + i;
      // Name the id that is stored: the first one when the stored part comes first.
      if (!consistent)
        return { ok: false, refusal: 'idempotency-mismatch', eventId: stored === undefined ? events[0].id : id };
      last = stored;
    }
    if (first === undefined || last === undefined) return undefined;
    return { ok: true, revision: last.revision, globalPosition: last.global_position, repeat: true };
  }
}
