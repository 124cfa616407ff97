import { Column, Entity, Index, PrimaryColumn } from 'typeorm';

@Entity('test_run')
@Index(['agentId', 'position'])
@Index(['deploymentId', 'position'])
export class TestRunRow {
  @PrimaryColumn('text') id: string;
  @Column('text', { name: 'agent_id' }) agentId: string;
  @Column('text', { name: 'account_id' }) accountId: string;
  @Column('text', { name: 'deployment_id' }) deploymentId: string;
  @Column('text') environment: string;
  /** running, passed, failed */
  @Column('text') status: string;
  @Column('text', { name: 'started_at' }) startedAt: string;
  @Column('text', { name: 'finished_at', nullable: true }) finishedAt: string | null;
  @Column('integer') passed: number;
  @Column('integer') failed: number;
  /** the log position it started at (fixed width: sorts as text), to tell the latest of a deployment under a frozen clock */
  @Column('text') position: string;
}

/** One test case's result in a run. */
@Entity('test_result')
export class TestResultRow {
  @PrimaryColumn('text', { name: 'run_id' }) runId: string;
  @PrimaryColumn('integer') idx: number;
  @Column('text', { name: 'test_id' }) testId: string;
  @Column('text') name: string;
  @Column('boolean') passed: boolean;
  /** JSON array of turn outcomes */
  @Column('text') turns: string;
}
