import { createHash } from 'node:crypto';
import type { DataSource } from 'typeorm';
import { IsNull, LessThan } from 'typeorm';
import { IdempotencyRecord } from '../database/platform.entities';
import { syncTransaction } from '../database/raw-connection';

export type Reservation =
  | { kind: 'new' }
  | { kind: 'replay'; status: number; body: unknown; headers: Record<string, string> }
  | { kind: 'mismatch' }
  | { kind: 'in_progress' };

const TTL_MS = 24 * 60 * 60 * 1000;

/** Idempotency records, durable in the platform database, kept 24 h on the platform clock. */
export class IdempotencyStore {
  constructor(private readonly platform: DataSource) {}

  static recordId(scope: string, method: string, path: string, key: string): string {
    return createHash('sha256').update(`${scope}\n${method}\n${path}\n${key}`).digest('hex');
  }

  static requestHash(body: unknown): string {
    return createHash('sha256').update(JSON.stringify(body ?? null)).digest('hex');
  }

  /** Claims the key for this request, or says what the first request with it got. */
  async reserve(id: string, requestHash: string, now: Date): Promise<Reservation> {
    return syncTransaction(this.platform, (db): Reservation => {
      const existing = db.prepare('SELECT request_hash, status, body, headers, expires_at FROM idempotency_record WHERE id = ?').get(id) as
        | { request_hash: string; status: number | null; body: string | null; headers: string | null; expires_at: string }
        | undefined;
      if (existing && existing.expires_at > now.toISOString()) {
        if (existing.request_hash !== requestHash) return { kind: 'mismatch' };
        if (existing.status === null) return { kind: 'in_progress' };
        return {
          kind: 'replay',
          status: existing.status,
          body: existing.body === null ? null : JSON.parse(existing.body),
          headers: existing.headers ? JSON.parse(existing.headers) : {},
        };
      }
      db.prepare('INSERT OR REPLACE INTO idempotency_record (id, request_hash, status, body, headers, expires_at) VALUES (?, ?, NULL, NULL, NULL, ?)').run(
        id,
        requestHash,
        new Date(now.getTime() + TTL_MS).toISOString(),
      );
      return { kind: 'new' };
    });
  }

  async complete(id: string, status: number, body: unknown, headers: Record<string, string>): Promise<void> {
    await this.platform
      .getRepository(IdempotencyRecord)
      .update({ id }, { status, body: body === undefined ? null : JSON.stringify(body), headers: JSON.stringify(headers) });
  }

  /** The request failed: free the key so the client can retry with it. */
  async release(id: string): Promise<void> {
    await this.platform.getRepository(IdempotencyRecord).delete({ id, status: IsNull() });
  }

  async purgeExpired(now: Date): Promise<number> {
    const result = await this.platform.getRepository(IdempotencyRecord).delete({ expiresAt: LessThan(now.toISOString()) });
    return result.affected ?? 0;
  }
}
