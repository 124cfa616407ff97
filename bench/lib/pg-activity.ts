import { Client } from 'pg';
import { withClient } from './bench-postgres';

/**
 * What one database of the server did over a window, from the server's own counters: WAL written
 * (pg_current_wal_lsn()), transactions and rows (pg_stat_database), rows by table
 * (pg_stat_user_tables), events in the log (a count of parley_events), and the statements this
 * process sent (counted at pg's Client.query, so no pg_stat_statements is needed), group commits
 * (parley_append_batch calls) among them. Rows read are left out: the snapshot's own count(*)
 * scans the log, and would be counted with them.
 * pg_stat_* counters reach shared memory at most once a second from a busy backend and up to 10 s
 * late from an idle one: read them after a pause (IDLE_FLUSH_MS).
 */
export const IDLE_FLUSH_MS = 11_000;

export interface Activity {
  walBytes: number;
  statements: number;
  /** statements that were a group commit (a call of parley_append_batch) */
  groupCommits: number;
  commits: number;
  rollbacks: number;
  inserted: number;
  updated: number;
  deleted: number;
  events: number;
  /** per table: rows inserted, updated, deleted */
  tables: Record<string, { ins: number; upd: number; del: number }>;
}

interface Snapshot {
  lsn: string;
  at: Activity;
}

let statements = 0;
let groupCommits = 0;
let counting = false;

/** From now on every Client.query of this process counts, except the snapshots' own. */
export function countStatements(): void {
  if (counting) return;
  counting = true;
  const query = Client.prototype.query as (...args: unknown[]) => unknown;
  Client.prototype.query = function (this: Client & { benchUncounted?: boolean }, ...args: unknown[]) {
    if (!this.benchUncounted) {
      statements++;
      const text = typeof args[0] === 'string' ? args[0] : (args[0] as { text?: string } | undefined)?.text;
      if (text?.includes('parley_append_batch')) groupCommits++;
    }
    return query.apply(this, args);
  } as typeof Client.prototype.query;
}

export function snapshot(url: string): Promise<Snapshot> {
  return withClient(url, async (client) => {
    (client as Client & { benchUncounted?: boolean }).benchUncounted = true;
    const { rows } = await client.query<Record<string, string>>(
      `SELECT pg_current_wal_lsn()::text AS lsn, d.xact_commit::text AS commits, d.xact_rollback::text AS rollbacks,
              d.tup_inserted::text AS inserted, d.tup_updated::text AS updated, d.tup_deleted::text AS deleted,
              (SELECT count(*) FROM parley_events)::text AS events
         FROM pg_stat_database d WHERE d.datname = current_database()`,
    );
    const tables = await client.query<{ relname: string; ins: string; upd: string; del: string }>(
      'SELECT relname, n_tup_ins::text AS ins, n_tup_upd::text AS upd, n_tup_del::text AS del FROM pg_stat_user_tables',
    );
    const r = rows[0];
    return {
      lsn: r.lsn,
      at: {
        walBytes: 0,
        statements,
        groupCommits,
        commits: Number(r.commits),
        rollbacks: Number(r.rollbacks),
        inserted: Number(r.inserted),
        updated: Number(r.updated),
        deleted: Number(r.deleted),
        events: Number(r.events),
        tables: Object.fromEntries(
          tables.rows.map((t) => [t.relname, { ins: Number(t.ins), upd: Number(t.upd), del: Number(t.del) }]),
        ),
      },
    };
  });
}

/** b − a, the WAL between their LSNs. */
export async function between(url: string, a: Snapshot, b: Snapshot): Promise<Activity> {
  const walBytes = await withClient(url, async (client) => {
    (client as Client & { benchUncounted?: boolean }).benchUncounted = true;
    const { rows } = await client.query<{ d: string }>('SELECT pg_wal_lsn_diff($1, $2)::text AS d', [b.lsn, a.lsn]);
    return Number(rows[0].d);
  });
  return { ...minus(b.at, a.at), walBytes };
}

/** a − b, field by field (tables too). */
export function minus(a: Activity, b: Activity): Activity {
  const out = { ...a, tables: {} as Activity['tables'] };
  for (const key of Object.keys(a) as Array<keyof Activity>) {
    if (key !== 'tables') (out[key] as number) = (a[key] as number) - (b[key] as number);
  }
  for (const [name, t] of Object.entries(a.tables)) {
    const o = b.tables[name] ?? { ins: 0, upd: 0, del: 0 };
    out.tables[name] = { ins: t.ins - o.ins, upd: t.upd - o.upd, del: t.del - o.del };
  }
  return out;
}
