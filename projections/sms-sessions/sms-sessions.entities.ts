import { Column, Entity, Index, PrimaryColumn } from 'typeorm';

/** A text the platform sent (or gave up on), as the outbox recorded it. */
@Entity('sms_message')
export class SmsMessageRow {
  @PrimaryColumn('text') id: string;
  /** log order: messages list in the order they were recorded */
  @Index() @Column('text') seq: string;
  @Index() @Column('text', { name: 'conversation_id' }) conversationId: string;
  @Index() @Column('text', { name: 'from_number' }) fromNumber: string;
  @Index() @Column('text', { name: 'to_number' }) toNumber: string;
  @Column('text') text: string;
  /** `delivered` or `failed` */
  @Column('text') status: string;
  @Column('text') carrier: string;
  @Column('text', { name: 'provider_message_id' }) providerMessageId: string;
  @Column('text', { nullable: true }) error: string | null;
  @Column('text') at: string;
}

/** One SMS session (one conversation) of a number pair. */
@Entity('sms_session')
@Index(['agentNumber', 'userNumber'])
export class SmsSessionRow {
  @PrimaryColumn('text', { name: 'conversation_id' }) conversationId: string;
  @Column('text', { name: 'agent_number' }) agentNumber: string;
  @Column('text', { name: 'user_number' }) userNumber: string;
  @Column('text', { name: 'agent_id' }) agentId: string;
  @Column('text') environment: string;
  /** `active`, `warning` or `ended` */
  @Column('text') status: string;
  @Column('text', { name: 'opened_at' }) openedAt: string;
  @Column('text', { name: 'last_activity_at' }) lastActivityAt: string;
  @Column('text', { name: 'end_reason', nullable: true }) endReason: string | null;
}
