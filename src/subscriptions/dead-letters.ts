import { Inject, Injectable } from '@nestjs/common';
import type { DataSource } from 'typeorm';
import type { RecordedEvent } from '../event-store/event-store.port';
import type { Position } from '../event-store/position';
import { PLATFORM_DB } from '../platform/database/platform-database';
import { portableSql } from '../platform/database/portable-sql';

/** What set something aside: a read model's projection, a process manager (events), or a timer's owner. */
export type DeadLetterKind = 'projection' | 'process-manager' | 'timer';

/**
 * For a timer, `name` is its owner and `position` and `eventId` are the timer id; `eventType` is
 * `timer` and `streamId` empty (a timer is no event of the log).
 */
export interface DeadLetter {
  kind: DeadLetterKind;
  name: string;
  position: Position;
  /** the projection version and generation that met it; null for a process manager */
  version: number | null;
  generation: number | null;
  streamId: string;
  eventId: string;
  eventType: string;
  error: string;
  firstFailedAt: string;
  lastFailedAt: string;
  attempts: number;
  /** `retry`: an operator asked the running app to handle it again (process managers, timers) */
  status: 'open' | 'retry' | 'resolved';
  retriedAt: string | null;
  resolvedAt: string | null;
}

export interface DeadLetterFailure {
  kind: DeadLetterKind;
  name: string;
  version?: number | null;
  generation?: number | null;
  event: RecordedEvent;
  error: unknown;
  attempts: number;
}

/** What a listener hears of each dead letter recorded. */
export interface DeadLetterRecorded {
  kind: DeadLetterKind;
  name: string;
}

/** The type a timer's dead letter carries where an event's would be. */
const TIMER_DEAD_LETTER_TYPE = 'timer';

/** An error's message as stored and logged: bounded, since a handler's message may quote anything. */
const MAX_ERROR_CHARS = 500;

export function errorText(error: unknown): string {
  const text =
    error instanceof Error ? `${error.name === 'Error' ? '' : `${error.name}: `}${error.message}` : String(error);
  return text.length > MAX_ERROR_CHARS ? `${text.slice(0, MAX_ERROR_CHARS)}…` : text;
}

const RECORD = `INSERT INTO dead_letter (kind, name, position, version, generation, stream_id, event_id, event_type, error,
    first_failed_at, last_failed_at, attempts, status, retried_at, resolved_at)
  VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 'open', NULL, NULL)
  ON CONFLICT (kind, name, position) DO UPDATE SET version = excluded.version, generation = excluded.generation,
    error = excluded.error, last_failed_at = excluded.last_failed_at, attempts = dead_letter.attempts + excluded.attempts,
    status = 'open', resolved_at = NULL`;

const COLUMNS = `kind, name, position, version, generation, stream_id, event_id, event_type, error, first_failed_at,
  last_failed_at, attempts, status, retried_at, resolved_at`;

interface Row {
  kind: DeadLetterKind;
  name: string;
  position: Position;
  version: number | null;
  generation: number | null;
  stream_id: string;
  event_id: string;
  event_type: string;
  error: string;
  first_failed_at: string;
  last_failed_at: string;
  attempts: number | string;
  status: 'open' | 'retry' | 'resolved';
  retried_at: string | null;
  resolved_at: string | null;
}

const fromRow = (r: Row): DeadLetter => ({
  kind: r.kind,
  name: r.name,
  position: r.position,
  version: r.version === null ? null : Number(r.version),
  generation: r.generation === null ? null : Number(r.generation),
  streamId: r.stream_id,
  eventId: r.event_id,
  eventType: r.event_type,
  error: r.error,
  firstFailedAt: r.first_failed_at,
  lastFailedAt: r.last_failed_at,
  attempts: Number(r.attempts),
  status: r.status,
  retriedAt: r.retried_at,
  resolvedAt: r.resolved_at,
});

/**
 * The dead-letter table of the platform database (SQLite file or PostgreSQL): events a consumer
 * set aside so that one bad event never stops it for every tenant. Only where an event is, what
 * type it has and why it failed is kept; never its data, which may hold secrets.
 */
@Injectable()
export class DeadLetterStore {
  private readonly listeners = new Set<(recorded: DeadLetterRecorded) => void>();

  constructor(@Inject(PLATFORM_DB) private readonly platform: DataSource) {}

  /** Called after each dead letter is recorded (the /metrics counter). */
  onRecorded(listener: (recorded: DeadLetterRecorded) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  async record(failure: DeadLetterFailure, now = new Date().toISOString()): Promise<void> {
    const { event } = failure;
    await this.query(RECORD, [
      failure.kind,
      failure.name,
      event.position,
      failure.version ?? null,
      failure.generation ?? null,
      event.streamId,
      event.id,
      event.type,
      errorText(failure.error),
      now,
      now,
      failure.attempts,
    ]);
    for (const listener of this.listeners) listener(failure);
  }

  /** A timer its owner's handler kept failing for: keyed by its id; its payload is never kept. */
  async recordTimer(
    failure: { owner: string; timerId: string; error: unknown; attempts: number },
    now = new Date().toISOString(),
  ): Promise<void> {
    const { owner, timerId } = failure;
    await this.query(RECORD, [
      'timer',
      owner,
      timerId,
      null,
      null,
      '',
      timerId,
      TIMER_DEAD_LETTER_TYPE,
      errorText(failure.error),
      now,
      now,
      failure.attempts,
    ]);
    for (const listener of this.listeners) listener({ kind: 'timer', name: owner });
  }

  /** Open (or of the status given, or with `all` every) dead letters, of one consumer or all, in log order. */
  async list(
    filter: {
      kind?: DeadLetterKind;
      name?: string;
      status?: 'open' | 'retry' | 'resolved' | 'all';
      position?: Position;
    } = {},
  ): Promise<DeadLetter[]> {
    const status = filter.status ?? 'open';
    const conditions = Object.entries({
      status: status === 'all' ? undefined : status,
      kind: filter.kind,
      name: filter.name,
      position: filter.position,
    }).filter(([, value]) => value !== undefined);
    const where = conditions.map(([column]) => `${column} = ?`);
    const params = conditions.map(([, value]) => value);
    const sql = `SELECT ${COLUMNS} FROM dead_letter${where.length ? ` WHERE ${where.join(' AND ')}` : ''} ORDER BY kind, name, position`;
    return ((await this.query(sql, params)) as Row[]).map(fromRow);
  }

  /** Open dead letters per consumer: `${kind}:${name}` → count (status and metrics). */
  async openCounts(): Promise<Map<string, number>> {
    const rows = (await this.query(
      "SELECT kind, name, count(*) AS n FROM dead_letter WHERE status <> 'resolved' GROUP BY kind, name",
      [],
    )) as Array<{ kind: string; name: string; n: number | string }>;
    return new Map(rows.map((r) => [`${r.kind}:${r.name}`, Number(r.n)]));
  }

  /** A retry applied it: the consumer now holds what the event means. */
  async resolve(kind: DeadLetterKind, name: string, position: Position, now = new Date().toISOString()): Promise<void> {
    await this.query(
      "UPDATE dead_letter SET status = 'resolved', resolved_at = ?, retried_at = ? WHERE kind = ? AND name = ? AND position = ?",
      [now, now, kind, name, position],
    );
  }

  /** A timer fired after it was dead-lettered and re-armed: its dead letter, if any, is resolved. */
  async resolveTimer(owner: string, timerId: string, now = new Date().toISOString()): Promise<void> {
    await this.query(
      "UPDATE dead_letter SET status = 'resolved', resolved_at = ? WHERE kind = 'timer' AND name = ? AND position = ? AND status <> 'resolved'",
      [now, owner, timerId],
    );
  }

  /**
   * A generation built from the log became active: it met again, and recorded with its own
   * number, every event it could not apply. What older generations set aside and it applied is
   * no longer missing.
   */
  async resolveSuperseded(name: string, generation: number, now = new Date().toISOString()): Promise<void> {
    await this.query(
      "UPDATE dead_letter SET status = 'resolved', resolved_at = ? WHERE kind = 'projection' AND name = ? AND status <> 'resolved' AND (generation IS NULL OR generation < ?)",
      [now, name, generation],
    );
  }

  /** Asks the process that runs a process manager to handle its open dead letters (one, or all) again; how many. */
  async requestRetry(kind: DeadLetterKind, name: string, position?: Position): Promise<number> {
    const sql = `UPDATE dead_letter SET status = 'retry' WHERE kind = ? AND name = ? AND status = 'open'${position ? ' AND position = ?' : ''}`;
    const runner = this.platform.createQueryRunner();
    try {
      const result = await runner.query(
        portableSql(this.platform, sql),
        position ? [kind, name, position] : [kind, name],
        true,
      );
      return result.affected ?? 0;
    } finally {
      await runner.release();
    }
  }

  /** A retry failed again: it stays open, with the new error. */
  async retryFailed(
    kind: DeadLetterKind,
    name: string,
    position: Position,
    error: unknown,
    now = new Date().toISOString(),
  ): Promise<void> {
    await this.query(
      "UPDATE dead_letter SET status = 'open', error = ?, retried_at = ?, last_failed_at = ?, attempts = attempts + 1 WHERE kind = ? AND name = ? AND position = ?",
      [errorText(error), now, now, kind, name, position],
    );
  }

  private query(sql: string, params: unknown[]): Promise<unknown> {
    return this.platform.query(portableSql(this.platform, sql), params);
  }
}
