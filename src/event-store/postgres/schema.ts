import type { ClientBase } from 'pg';
import { APPEND_FUNCTIONS } from './append-function';

/** Any constant: several processes opening at once create the tables one after another. */
const MIGRATION_LOCK = 72_604_232;

/**
 * One table is the whole log. global_position orders the events of one transaction;
 * transaction_id (the writer's xid8) orders the transactions: a reader reads only below its
 * snapshot's xmin, in (transaction_id, global_position) order (docs/architecture.md, "The log in
 * PostgreSQL"). (stream_id, revision) guarantees two writers never take one revision; event_id is
 * unique across the log, as in SQLite, so a retry is recognised wherever its ids landed.
 * data and metadata are JSON text, not jsonb: jsonb cannot hold \u0000 and would not keep the text.
 */
const TABLES = `
  CREATE TABLE IF NOT EXISTS parley_events (
    global_position bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    transaction_id  xid8   NOT NULL DEFAULT pg_current_xact_id(),
    stream_id       text   NOT NULL,
    revision        bigint NOT NULL,
    event_id        text   NOT NULL,
    type            text   NOT NULL,
    data            text   NOT NULL,
    metadata        text   NOT NULL,
    UNIQUE (stream_id, revision)
  );
  CREATE UNIQUE INDEX IF NOT EXISTS parley_events_event_id ON parley_events (event_id);
  CREATE INDEX IF NOT EXISTS parley_events_log_order ON parley_events (transaction_id, global_position);
`;

/** Creates what is missing; safe to run from every process at every start. */
export async function migrate(client: ClientBase): Promise<void> {
  await client.query('BEGIN');
  try {
    await client.query('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK]);
    await client.query(TABLES);
    await client.query(APPEND_FUNCTIONS);
    await client.query('COMMIT');
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  }
  await refuseForeignTransactionIds(client);
}

/**
 * Transaction ids order the log, so they must come from this server's counter. A log copied by
 * pg_dump into another server holds ids that server has not reached yet: its new events would sort
 * before the old ones, and the old ones would stay invisible. pg_upgrade and physical backups keep
 * the counter; refuse to start rather than write a log out of order.
 */
async function refuseForeignTransactionIds(client: ClientBase): Promise<void> {
  const { rows } = await client.query<{ foreign: boolean }>(
    `SELECT EXISTS (
       SELECT 1 FROM parley_events WHERE transaction_id >= pg_snapshot_xmax(pg_current_snapshot())
     ) AS foreign`,
  );
  if (rows[0].foreign)
    throw new Error(
      'parley_events holds transaction ids this PostgreSQL server has not reached (a logical dump restored into ' +
        'another server?): restore the log with pg_upgrade or a physical backup, which keep the transaction counter',
    );
}
