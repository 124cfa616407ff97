import { Column, Entity, Index, PrimaryColumn } from 'typeorm';

/** A creating POST's first answer, replayed for repeats of its Idempotency-Key (contract §2). */
@Entity('idempotency_record')
export class IdempotencyRecord {
  /** scope (credential) + method + path + key, hashed: keys are client data of any length. */
  @PrimaryColumn('text') id: string;
  @Column('text', { name: 'request_hash' }) requestHash: string;
  /** null while the first request is still running */
  @Column('integer', { nullable: true }) status: number | null;
  @Column('text', { nullable: true }) body: string | null;
  @Column('text', { nullable: true }) headers: string | null;
  @Index() @Column('text', { name: 'expires_at' }) expiresAt: string;
}

/** A durable timer: fires once, after `dueAt` on the platform clock, even across restarts. */
@Entity('timer')
@Index(['status', 'dueAt'])
export class TimerRecord {
  @PrimaryColumn('text') id: string;
  @Column('text') owner: string;
  @Column('text', { name: 'due_at' }) dueAt: string;
  @Column('text') payload: string;
  /**
   * `firing`: claimed by a process until `leaseUntil`; if that process dies, another re-claims it.
   * `dead`: its handler kept failing; set aside (a dead letter) until an operator re-arms it.
   */
  @Column('text') status: 'pending' | 'firing' | 'fired' | 'cancelled' | 'dead';
  @Column('integer', { default: 0 }) attempts: number;
  @Column('text', { name: 'lease_until', nullable: true }) leaseUntil: string | null;
  @Column('text', { name: 'fired_at', nullable: true }) firedAt: string | null;
}

/** Where each process manager has got to in the log. */
@Entity('process_checkpoint')
export class ProcessCheckpoint {
  @PrimaryColumn('text') name: string;
  @Column('text') position: string;
  @Column('text', { name: 'updated_at' }) updatedAt: string;
}

/**
 * Which file holds each read model. A projection version can have several generations: the active
 * one serves, a building one catches up beside it, retired ones wait to be deleted.
 */
@Entity('read_model_generation')
@Index(['name', 'version', 'status'])
export class ReadModelGeneration {
  @PrimaryColumn('text') name: string;
  @PrimaryColumn('integer') version: number;
  @PrimaryColumn('integer') generation: number;
  @Column('text') status: 'building' | 'active' | 'retired';
  @Column('text') file: string;
  @Column('text', { name: 'created_at' }) createdAt: string;
  @Column('text', { name: 'activated_at', nullable: true }) activatedAt: string | null;
}

export const PLATFORM_ENTITIES = [IdempotencyRecord, TimerRecord, ProcessCheckpoint, ReadModelGeneration];
