import { Column, Entity, Index, PrimaryColumn } from 'typeorm';

/** What a conversation is sliced by, and the 5-minute intervals it has been counted in so far. */
@Entity('concurrency_conversation')
export class ConcurrencyConversationRow {
  @PrimaryColumn('text') id: string;
  @Column('text', { name: 'agent_id' }) agentId: string;
  @Column('text') environment: string;
  @Column('text') channel: string;
  @Column('text', { name: 'variant_id' }) variantId: string;
  @Column('text', { name: 'variant_name' }) variantName: string;
  @Column('text') language: string;
  /** the agent's own number ('' where the channel has none) */
  @Column('text', { name: 'phone_number' }) phoneNumber: string;
  /** 5-minute interval indexes (epoch ms / 300,000) of its first and its last event */
  @Column('integer', { name: 'first_bucket' }) firstBucket: number;
  @Column('integer', { name: 'last_bucket' }) lastBucket: number;
}

/**
 * Conversations in progress per 5-minute interval, per combination of the slices. A series is a
 * range of one agent's and environment's rows summed by interval: a week reads 2,016 intervals
 * times the combinations present, however many conversations ran.
 */
@Entity('concurrency_bucket')
@Index('concurrency_bucket_range', ['agentId', 'environment', 'bucket', 'conversations'])
export class ConcurrencyBucketRow {
  @PrimaryColumn('text', { name: 'agent_id' }) agentId: string;
  @PrimaryColumn('text') environment: string;
  @PrimaryColumn('integer') bucket: number;
  @PrimaryColumn('text') channel: string;
  @PrimaryColumn('text', { name: 'variant_id' }) variantId: string;
  @PrimaryColumn('text', { name: 'variant_name' }) variantName: string;
  @PrimaryColumn('text') language: string;
  @PrimaryColumn('text', { name: 'phone_number' }) phoneNumber: string;
  @Column('integer') conversations: number;
}
