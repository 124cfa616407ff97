import { Column, Entity, Index, PrimaryColumn, PrimaryGeneratedColumn } from 'typeorm';

/**
 * One observation an alert metric is computed from: a turn's latency (ms), errors counted on a
 * turn, a call started, a call crashed. Per project, at a time (epoch ms on the platform clock).
 */
@Entity('sample')
// `value` last: an alert window's sums, counts and latency lists are read from the index alone,
// never from the table (v2; a 10,000-rule round over 1M samples spent most of its time there)
@Index('sample_account', ['accountId', 'kind', 'atMs', 'value'])
@Index('sample_project', ['projectId', 'kind', 'atMs', 'value'])
export class SampleRow {
  @PrimaryGeneratedColumn('increment') id: number;
  @Column('text', { name: 'account_id' }) accountId: string;
  @Column('text', { name: 'project_id' }) projectId: string;
  /** `latency` | `api_errors` | `function_errors` | `crash` | `call` */
  @Column('text') kind: string;
  @Column('bigint', { name: 'at_ms' }) atMs: number;
  @Column('double precision') value: number;
}

/** Which account and project a conversation belongs to: its later events do not say. */
@Entity('sample_conversation')
export class SampleConversationRow {
  @PrimaryColumn('text', { name: 'conversation_id' }) conversationId: string;
  @Column('text', { name: 'account_id' }) accountId: string;
  @Column('text', { name: 'project_id' }) projectId: string;
}
