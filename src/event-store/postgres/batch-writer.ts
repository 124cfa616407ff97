import type { Pool, PoolClient } from 'pg';
import type { Position } from '../position';
import { postgresPosition } from './rows';
import type { AppendRequest } from '../append-request';

export type { AppendRequest, SerializedEvent } from '../append-request';

export type AppendOutcome =
  /** `repeat`: a retry of an append already stored, answered with what it answered then */
  | { ok: true; revision: bigint; position: Position; repeat: boolean }
  | { ok: false; refusal: 'wrong-revision'; actual: bigint | null }
  | { ok: false; refusal: 'idempotency-mismatch'; eventId: string }
  | { ok: false; refusal: 'failed'; message: string };

export interface BatchResult {
  outcomes: AppendOutcome[];
  /** The xid8 of the transaction when it stored events; null when every append was a refusal or a repeat. */
  wroteIn: bigint | null;
  /** Transactions it took: more than one when a deadlock or the stream-order check made it run again. */
  attempts: number;
}

interface OutcomeRow {
  o_outcome: 'ok' | 'repeat' | 'wrong-revision' | 'idempotency-mismatch' | 'failed';
  o_revision: string | null;
  o_global_position: string | null;
  o_transaction_id: string | null;
  o_detail: string | null;
}

/** serialization_failure (our stream-order check, append-function.ts) and deadlock_detected: run it again. */
const RETRYABLE = new Set(['40001', '40P01']);
const MAX_ATTEMPTS = 20;

/**
 * Writes a group of appends in one transaction on the writer connection: one call of
 * parley_append_batch, a transaction of its own. Each append is decided on its own inside (append-function.ts).
 * Throws when the transaction itself fails; then nothing of the group is stored.
 */
export class BatchWriter {
  constructor(
    private readonly pool: Pool,
    /** Runs inside the transaction just before COMMIT: tests hold it open to commit out of order. */
    private readonly beforeCommit?: () => Promise<void>,
  ) {}

  async write(batch: AppendRequest[]): Promise<BatchResult> {
    for (let attempt = 1; ; attempt++) {
      try {
        return { ...(await this.transaction(batch)), attempts: attempt };
      } catch (error) {
        const code = (error as { code?: unknown }).code;
        if (attempt >= MAX_ATTEMPTS || typeof code !== 'string' || !RETRYABLE.has(code)) throw error;
      }
    }
  }

  /**
   * One statement is its own transaction: PostgreSQL commits it before it answers (pg resolves a
   * query at ReadyForQuery, after the commit), so BEGIN and COMMIT would only add two round trips
   * to every group. Only a test's beforeCommit needs the transaction held open.
   */
  private async transaction(batch: AppendRequest[]): Promise<Omit<BatchResult, 'attempts'>> {
    const client = await this.pool.connect();
    let broken: Error | undefined;
    try {
      if (this.beforeCommit) await client.query('BEGIN');
      const { rows } = await client.query<OutcomeRow>(
        'SELECT * FROM parley_append_batch($1, $2, $3, $4, $5, $6, $7)',
        parameters(batch),
      );
      if (this.beforeCommit) {
        await this.beforeCommit();
        await client.query('COMMIT');
      }
      const outcomes = rows.map(toOutcome);
      const written = rows.find((row) => row.o_outcome === 'ok');
      return { outcomes, wroteIn: written ? BigInt(written.o_transaction_id!) : null };
    } catch (error) {
      broken = await rollback(client, error);
      throw error;
    } finally {
      client.release(broken);
    }
  }
}

/**
 * Undefined when the connection is fit for the next transaction, else the error that retires it.
 * After a failed single statement there is no transaction left: ROLLBACK only warns, and tells
 * whether the connection still answers.
 */
async function rollback(client: PoolClient, cause: unknown): Promise<Error | undefined> {
  try {
    await client.query('ROLLBACK');
    return undefined;
  } catch {
    return cause instanceof Error ? cause : new Error(String(cause));
  }
}

/** The group as parallel arrays: one row per append, one per event, none of it re-encoded. */
function parameters(batch: AppendRequest[]): unknown[] {
  const events = batch.flatMap((append) => append.events);
  return [
    batch.map((append) => append.streamId),
    batch.map((append) => String(append.expected)),
    batch.map((append) => append.events.length),
    events.map((event) => event.id),
    events.map((event) => event.type),
    events.map((event) => event.data),
    events.map((event) => event.metadata),
  ];
}

function toOutcome(row: OutcomeRow): AppendOutcome {
  switch (row.o_outcome) {
    case 'ok':
    case 'repeat':
      return {
        ok: true,
        revision: BigInt(row.o_revision!),
        position: postgresPosition(row.o_transaction_id!, row.o_global_position!),
        repeat: row.o_outcome === 'repeat',
      };
    case 'wrong-revision':
      return { ok: false, refusal: 'wrong-revision', actual: row.o_revision === null ? null : BigInt(row.o_revision) };
    case 'idempotency-mismatch':
      return { ok: false, refusal: 'idempotency-mismatch', eventId: row.o_detail! };
    default:
      return { ok: false, refusal: 'failed', message: row.o_detail ?? 'the append failed' };
  }
}
