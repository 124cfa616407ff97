import { Column, Entity, PrimaryColumn } from 'typeorm';

/**
 * A rule's latest evaluation (when, and the value). Operational data in the platform database,
 * like timers: state transitions are events, but an evaluation every minute of every rule is not
 * history anyone replays.
 */
@Entity('alert_evaluation')
export class AlertEvaluation {
  @PrimaryColumn('text', { name: 'rule_id' }) ruleId: string;
  @Column('text', { name: 'evaluated_at' }) evaluatedAt: string;
  @Column('real', { name: 'current_value', nullable: true }) currentValue: number | null;
}
