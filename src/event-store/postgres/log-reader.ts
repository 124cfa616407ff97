import type { Pool } from 'pg';
import type { ReadStreamOptions, RecordedEvent } from '../event-store.port';
import { START, type Position } from '../position';
import { eventColumns, positionParams, postgresPosition, toLazyEvent, toRecordedEvent, type EventRow } from './rows';

/**
 * The visible horizon: every transaction with a smaller xid8 has ended, so no row below it can
 * appear later, and a reader that reads only below it, in (transaction_id, global_position) order,
 * never passes a row that commits after it read. pg_current_snapshot() is the statement's own
 * snapshot, so the horizon and the rows a statement reads agree.
 */
const HORIZON = 'pg_snapshot_xmin(pg_current_snapshot())';

/** What a read of the log found, and how far it could see: a commit at or past `horizon` was not. */
export interface LogPage {
  events: RecordedEvent[];
  horizon: bigint;
}

const MAX_REVISION = (1n << 63n) - 1n;

/** The reads of the log, on the reader pool. */
export class LogReader {
  constructor(private readonly pool: Pool) {}

  /**
   * Events strictly after `after`, below the horizon, in log order; `maxCount` null: all of them.
   * `lazily` (subscriptions): their data and metadata parsed when first read (LazyPostgresEvent).
   */
  async readPage(after: Position, maxCount: number | null, lazily = false): Promise<LogPage> {
    const { rows } = await this.pool.query<Partial<EventRow> & { horizon: string }>(
      `SELECT h.x::text AS horizon, ${eventColumns('p')}
         FROM (SELECT ${HORIZON} AS x) h
         LEFT JOIN LATERAL (
           SELECT * FROM parley_events e
            WHERE e.transaction_id < h.x AND (e.transaction_id, e.global_position) > ($1::xid8, $2::bigint)
            ORDER BY e.transaction_id, e.global_position
            LIMIT $3
         ) p ON true`,
      [...positionParams(after), maxCount],
    );
    const horizon = BigInt(rows[0].horizon);
    const events = rows[0].event_id === null ? [] : (rows as EventRow[]).map(lazily ? toLazyEvent : toRecordedEvent);
    return { events, horizon };
  }

  /** Every committed event of the stream, not only those below the horizon: a writer decides on these. */
  async readStream(streamId: string, options: ReadStreamOptions): Promise<RecordedEvent[]> {
    const backwards = options.direction === 'backwards';
    const from = revisionBound(options.fromRevision, backwards ? MAX_REVISION : 0n);
    const { rows } = await this.pool.query<EventRow>(
      `SELECT ${eventColumns('e')} FROM parley_events e
        WHERE e.stream_id = $1 AND e.revision ${backwards ? '<=' : '>='} $2::bigint
        ORDER BY e.revision ${backwards ? 'DESC' : 'ASC'}
        LIMIT $3`,
      [streamId, from.toString(), options.maxCount ?? null],
    );
    return rows.map(toRecordedEvent);
  }

  /** The position of the last event below the horizon. */
  async head(): Promise<Position> {
    const { rows } = await this.pool.query<{ transaction_id: string; global_position: string }>(
      `SELECT e.transaction_id::text AS transaction_id, e.global_position::text AS global_position
         FROM parley_events e
        WHERE e.transaction_id < (SELECT ${HORIZON})
        ORDER BY e.transaction_id DESC, e.global_position DESC
        LIMIT 1`,
    );
    return rows.length === 0 ? START : postgresPosition(rows[0].transaction_id, rows[0].global_position);
  }

  /** Events after `position` below the horizon: an index range count (positions have gaps, so no subtraction). */
  async countAfter(position: Position): Promise<number> {
    const { rows } = await this.pool.query<{ n: string }>(
      `SELECT count(*)::text AS n FROM parley_events e
        WHERE e.transaction_id < (SELECT ${HORIZON})
          AND (e.transaction_id, e.global_position) > ($1::xid8, $2::bigint)`,
      positionParams(position),
    );
    return Number(rows[0].n);
  }
}

function revisionBound(revision: bigint | undefined, fallback: bigint): bigint {
  if (revision === undefined) return fallback;
  if (revision < 0n) throw new RangeError('a stream revision is never negative');
  return revision > MAX_REVISION ? MAX_REVISION : revision;
}
