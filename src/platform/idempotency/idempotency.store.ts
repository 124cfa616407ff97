import { createHash } from 'node:crypto';
import type { DataSource } from 'typeorm';
import { IsNull, LessThan } from 'typeorm';
import { IdempotencyRecord } from '../database/platform.entities';
import { idempotencyReservations, type IdempotencyReservations, type Reservation } from './idempotency-reservations';

export type { Reservation } from './idempotency-reservations';

const TTL_MS = 24 * 60 * 60 * 1000;

/** Idempotency records, durable in the platform database, kept 24 h on the platform clock. */
export class IdempotencyStore {
  private readonly reservations: IdempotencyReservations;

  constructor(private readonly platform: DataSource) {
    this.reservations = idempotencyReservations(platform);
  }

  static recordId(scope: string, method: string, path: string, key: string): string {
    return createHash('sha256').update(`${scope}\n${method}\n${path}\n${key}`).digest('hex');
  }

  static requestHash(body: unknown): string {
    return createHash('sha256').update(JSON.stringify(body ?? null)).digest('hex');
  }

  /** Claims the key for this request, or says what the first request with it got. */
  async reserve(id: string, requestHash: string, now: Date): Promise<Reservation> {
    return this.reservations.reserve(id, requestHash, now.toISOString(), new Date(now.getTime() + TTL_MS).toISOString());
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
