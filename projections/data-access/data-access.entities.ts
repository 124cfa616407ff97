import { Column, Entity, PrimaryColumn } from 'typeorm';

/** Per project: which metrics and whether transcripts reach API responses. No row = the defaults. */
@Entity('data_access')
export class DataAccessRow {
  @PrimaryColumn('text', { name: 'agent_id' }) agentId: string;
  @Column('text', { name: 'account_id' }) accountId: string;
  /** JSON array of metric names */
  @Column('text', { name: 'response_metrics' }) responseMetrics: string;
  @Column('boolean', { name: 'show_transcripts' }) showTranscripts: boolean;
  @Column('text', { name: 'updated_at' }) updatedAt: string;
}
