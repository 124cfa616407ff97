import type { DataSource } from 'typeorm';
import { forDialect } from '../platform/database/dialect';
import { pgQueries, type PgQueries } from '../platform/database/pg-queries';
import { TimerRecord } from '../platform/database/platform.entities';
import { syncTransaction } from '../platform/database/raw-connection';

interface TimerClaim {
  /** the owners whose timers this process fires */
  owners: string[];
  nowIso: string;
  leaseUntil: string;
  /** timers this round already failed: they wait for the next round */
  skip: ReadonlySet<string>;
  limit: number;
}

/**
 * Claims due timers (pending, or firing with a lease that ran out) with a lease, atomically:
 * two processes never claim the same one. Returned in due order, marked `firing`.
 */
export interface TimerClaims {
  claimDue(claim: TimerClaim): Promise<TimerRecord[]>;
}

interface Row {
  id: string;
  owner: string;
  due_at: string;
  payload: string;
  attempts: number;
}

const claimed = (row: Row, leaseUntil: string) =>
  Object.assign(new TimerRecord(), {
    id: row.id,
    owner: row.owner,
    dueAt: row.due_at,
    payload: row.payload,
    status: 'firing' as const,
    attempts: row.attempts,
    leaseUntil,
    firedAt: null,
  });

/** One synchronous transaction on the shared connection: nothing can interleave with it. */
class SqliteTimerClaims implements TimerClaims {
  constructor(private readonly platform: DataSource) {}

  async claimDue({ owners, nowIso, leaseUntil, skip, limit }: TimerClaim): Promise<TimerRecord[]> {
    return syncTransaction(this.platform, (db) => {
      const rows = db
        .prepare(
          `SELECT * FROM timer WHERE owner IN (${owners.map(() => '?').join(', ')}) AND due_at <= ?
           AND (status = 'pending' OR (status = 'firing' AND lease_until <= ?))
           ${skip.size > 0 ? `AND id NOT IN (${[...skip].map(() => '?').join(', ')})` : ''} ORDER BY due_at LIMIT ${limit}`,
        )
        .all(...owners, nowIso, nowIso, ...skip) as Row[];
      const claim = db.prepare("UPDATE timer SET status = 'firing', lease_until = ? WHERE id = ?");
      for (const row of rows) claim.run(leaseUntil, row.id);
      return rows.map((row) => claimed(row, leaseUntil));
    });
  }
}

/**
 * One statement: the due rows are locked FOR UPDATE, skipping those another process holds locked
 * mid-claim, and leased. A row another claimer committed meanwhile is re-checked by PostgreSQL
 * against the WHERE clause after its lock, so a timer just leased elsewhere is not taken again.
 */
class PostgresTimerClaims implements TimerClaims {
  private readonly q: PgQueries;

  constructor(platform: DataSource) {
    this.q = pgQueries(platform);
  }

  async claimDue({ owners, nowIso, leaseUntil, skip, limit }: TimerClaim): Promise<TimerRecord[]> {
    const rows = await this.q.rows<Row>(
      `UPDATE timer SET status = 'firing', lease_until = $1
       WHERE id IN (
         SELECT id FROM timer WHERE owner = ANY($2) AND due_at <= $3
         AND (status = 'pending' OR (status = 'firing' AND lease_until <= $3)) AND NOT (id = ANY($4))
         ORDER BY due_at LIMIT $5 FOR UPDATE SKIP LOCKED)
       RETURNING id, owner, due_at, payload, attempts`,
      [leaseUntil, owners, nowIso, [...skip], limit],
    );
    // RETURNING follows no ORDER BY: due order again, as the handlers expect
    return rows
      .sort((a, b) => (a.due_at < b.due_at ? -1 : a.due_at > b.due_at ? 1 : 0))
      .map((row) => claimed(row, leaseUntil));
  }
}

export const timerClaims = (platform: DataSource): TimerClaims =>
  forDialect<TimerClaims>(platform, {
    sqlite: (s) => new SqliteTimerClaims(s),
    postgres: (s) => new PostgresTimerClaims(s),
  });
