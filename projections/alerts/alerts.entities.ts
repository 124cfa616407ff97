import { Column, Entity, Index, PrimaryColumn } from 'typeorm';

/** Alert rules with their current evaluation state: the Alerts API's read model. */
@Entity('alert_rule')
@Index(['accountId', 'deletedAt'])
export class AlertRuleRow {
  @PrimaryColumn('text') id: string;
  @Column('text', { name: 'account_id' }) accountId: string;
  @Column('text', { name: 'project_id', nullable: true }) projectId: string | null;
  @Column('text') name: string;
  @Column('text') metric: string;
  @Column('text') operator: string;
  @Column('integer', { name: 'threshold_value' }) thresholdValue: number;
  @Column('text', { name: 'window_duration' }) windowDuration: string;
  @Column('boolean') enabled: boolean;
  @Column('text', { name: 'current_state' }) currentState: string;
  @Column('text') since: string;
  @Column('text', { name: 'last_evaluated_at', nullable: true }) lastEvaluatedAt: string | null;
  @Column('double precision', { name: 'current_value', nullable: true }) currentValue: number | null;
  @Column('text', { name: 'created_at' }) createdAt: string;
  @Column('text', { name: 'updated_at' }) updatedAt: string;
  @Column('text', { name: 'deleted_at', nullable: true }) deletedAt: string | null;
}
