import type { DataSource } from 'typeorm';
import { forDialect } from '../database/dialect';
import { pgQueries, type PgQueries } from '../database/pg-queries';
import { syncTransaction } from '../database/raw-connection';

export type Reservation =
  | { kind: 'new' }
  | { kind: 'replay'; status: number; body: unknown; headers: Record<string, string> }
  | { kind: 'mismatch' }
  | { kind: 'in_progress' };

/** What the table answers: a replay's body as stored (sealed), for the store to open. */
type StoredReservation =
  | Exclude<Reservation, { kind: 'replay' }>
  | { kind: 'replay'; status: number; body: string | null; headers: Record<string, string> };

/**
 * Claims an idempotency key for a request, atomically: of two racing requests with one key,
 * exactly one gets `new`. A record past `expires_at` counts as absent and is replaced.
 */
export interface IdempotencyReservations {
  reserve(id: string, requestHash: string, nowIso: string, expiresAt: string): Promise<StoredReservation>;
}

interface Row {
  request_hash: string;
  status: number | null;
  body: string | null;
  headers: string | null;
  expires_at: string;
}

/** What a live record (unexpired) says to a request with `requestHash`. */
function answer(existing: Row, requestHash: string): StoredReservation {
  if (existing.request_hash !== requestHash) return { kind: 'mismatch' };
  if (existing.status === null) return { kind: 'in_progress' };
  return {
    kind: 'replay',
    status: existing.status,
    body: existing.body,
    headers: existing.headers ? JSON.parse(existing.headers) : {},
  };
}

/** Read and insert in one synchronous transaction on the shared connection (every creating POST passes here). */
class SqliteIdempotencyReservations implements IdempotencyReservations {
  constructor(private readonly platform: DataSource) {}

  async reserve(id: string, requestHash: string, nowIso: string, expiresAt: string): Promise<StoredReservation> {
    return syncTransaction(this.platform, (db): StoredReservation => {
      const existing = db
        .prepare('SELECT request_hash, status, body, headers, expires_at FROM idempotency_record WHERE id = ?')
        .get(id) as Row | undefined;
      if (existing && existing.expires_at > nowIso) return answer(existing, requestHash);
      db.prepare(
        'INSERT OR REPLACE INTO idempotency_record (id, request_hash, status, body, headers, expires_at) VALUES (?, ?, NULL, NULL, NULL, ?)',
      ).run(id, requestHash, expiresAt);
      return { kind: 'new' };
    });
  }
}

/**
 * One upsert decides: it inserts the key, or takes over an expired record, and reports whether it
 * did; the unique key makes a racing request wait for the winner's row and then find it live. A
 * request that lost reads the live record. Between the two the winner may release the key (its
 * request failed): then try again.
 */
class PostgresIdempotencyReservations implements IdempotencyReservations {
  private readonly q: PgQueries;

  constructor(platform: DataSource) {
    this.q = pgQueries(platform);
  }

  async reserve(id: string, requestHash: string, nowIso: string, expiresAt: string): Promise<StoredReservation> {
    for (let attempt = 0; attempt < 5; attempt++) {
      const taken = await this.q.rows(
        `INSERT INTO idempotency_record (id, request_hash, status, body, headers, expires_at) VALUES ($1, $2, NULL, NULL, NULL, $3)
         ON CONFLICT (id) DO UPDATE SET request_hash = EXCLUDED.request_hash, status = NULL, body = NULL, headers = NULL, expires_at = EXCLUDED.expires_at
         WHERE idempotency_record.expires_at <= $4
         RETURNING id`,
        [id, requestHash, expiresAt, nowIso],
      );
      if (taken.length > 0) return { kind: 'new' };
      const [existing] = await this.q.rows<Row>(
        'SELECT request_hash, status, body, headers, expires_at FROM idempotency_record WHERE id = $1',
        [id],
      );
      if (existing && existing.expires_at > nowIso) return answer(existing, requestHash);
    }
    // released and taken again five times over within this call: the key is contended; the client retries
    return { kind: 'in_progress' };
  }
}

export const idempotencyReservations = (platform: DataSource): IdempotencyReservations =>
  forDialect<IdempotencyReservations>(platform, {
    sqlite: (s) => new SqliteIdempotencyReservations(s),
    postgres: (s) => new PostgresIdempotencyReservations(s),
  });
