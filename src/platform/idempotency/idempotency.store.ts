import { Inject, Injectable } from '@nestjs/common';
import { createHash } from 'node:crypto';
import type { DataSource } from 'typeorm';
import { IsNull, LessThan } from 'typeorm';
import { ServerSecret } from '../auth/server-secret';
import { PLATFORM_DB } from '../database/platform-database';
import { IdempotencyRecord } from '../database/platform.entities';
import { dialectOf } from '../database/dialect';
import { pgQueries } from '../database/pg-queries';
import { rawConnection } from '../database/raw-connection';
import { idempotencyReservations, type IdempotencyReservations, type Reservation } from './idempotency-reservations';

export type { Reservation } from './idempotency-reservations';

const TTL_MS = 24 * 60 * 60 * 1000;
/** ServerSecret.encrypt's version tag: no JSON text starts with it, so a clear body is recognisable. */
const SEALED = 'v1.';

/**
 * Idempotency records, durable in the platform database, kept 24 h on the platform clock. A first
 * answer may carry a secret (a new key's value, a signing secret, an access token), so its body is
 * stored sealed with the server secret (AES-256-GCM, as webhook secrets are) and opened on replay;
 * the request is remembered by an HMAC, not a plain hash, so a guessable body cannot be confirmed.
 */
/** A stored answer this process cannot open. */
const UNREADABLE = Symbol('unreadable');

@Injectable()
export class IdempotencyStore {
  private readonly reservations: IdempotencyReservations;

  constructor(
    @Inject(PLATFORM_DB) private readonly platform: DataSource,
    private readonly secret: ServerSecret,
  ) {
    this.reservations = idempotencyReservations(platform);
  }

  /** `scope` names the authenticated credential (its id, never its value). */
  static recordId(scope: string, method: string, path: string, key: string): string {
    return createHash('sha256').update(`${scope}\n${method}\n${path}\n${key}`).digest('hex');
  }

  requestHash(body: unknown): string {
    return this.secret.digest(`idempotency-request\n${JSON.stringify(body ?? null)}`);
  }

  /** Claims the key for this request, or says what the first request with it got. */
  async reserve(id: string, requestHash: string, now: Date): Promise<Reservation> {
    const stored = await this.reservations.reserve(
      id,
      requestHash,
      now.toISOString(),
      new Date(now.getTime() + TTL_MS).toISOString(),
    );
    if (stored.kind !== 'replay') return stored;
    const body = this.open(stored.body);
    if (body !== UNREADABLE) return { ...stored, body };
    // sealed under another SERVER_SECRET, or damaged: it can never be replayed, so it must not
    // answer 500 for a day; the request runs as new
    await this.platform.getRepository(IdempotencyRecord).delete({ id });
    return this.reservations.reserve(
      id,
      requestHash,
      now.toISOString(),
      new Date(now.getTime() + TTL_MS).toISOString(),
    );
  }

  private open(sealed: string | null): unknown {
    if (sealed === null) return null;
    try {
      return JSON.parse(this.secret.decrypt(sealed));
    } catch {
      return UNREADABLE;
    }
  }

  async complete(id: string, status: number, body: unknown, headers: Record<string, string>): Promise<void> {
    const sealed = body === undefined ? null : this.secret.encrypt(JSON.stringify(body));
    await this.platform
      .getRepository(IdempotencyRecord)
      .update({ id }, { status, body: sealed, headers: JSON.stringify(headers) });
  }

  /** The request failed: free the key so the client can retry with it. */
  async release(id: string): Promise<void> {
    await this.platform.getRepository(IdempotencyRecord).delete({ id, status: IsNull() });
  }

  async purgeExpired(now: Date): Promise<number> {
    const result = await this.platform
      .getRepository(IdempotencyRecord)
      .delete({ expiresAt: LessThan(now.toISOString()) });
    return result.affected ?? 0;
  }

  /**
   * Records written in clear by versions before sealing (and scoped the old way, so they can never
   * match again) are deleted at start. On SQLite with secure_delete, so the freed pages are zeroed
   * rather than left holding the text, and the WAL is checkpointed empty.
   */
  async dropUnsealed(): Promise<number> {
    const where = `body IS NOT NULL AND body NOT LIKE '${SEALED}%'`;
    if (dialectOf(this.platform) === 'postgres') {
      return pgQueries(this.platform).affected(`DELETE FROM idempotency_record WHERE ${where}`);
    }
    const db = rawConnection(this.platform);
    if (!db.prepare(`SELECT 1 FROM idempotency_record WHERE ${where} LIMIT 1`).get()) return 0;
    db.pragma('secure_delete = ON');
    try {
      const { changes } = db.prepare(`DELETE FROM idempotency_record WHERE ${where}`).run();
      db.pragma('wal_checkpoint(TRUNCATE)');
      return changes;
    } finally {
      db.pragma('secure_delete = OFF');
    }
  }
}
