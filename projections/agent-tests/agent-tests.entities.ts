import { Column, Entity, Index, PrimaryColumn } from 'typeorm';

/** The test cases on each branch, `main` included (branch id `main`), like topics. */
@Entity('branch_test')
@Index(['agentId', 'branchId', 'name'], { unique: true })
export class BranchTestRow {
  @PrimaryColumn('text', { name: 'agent_id' }) agentId: string;
  @PrimaryColumn('text', { name: 'branch_id' }) branchId: string;
  @PrimaryColumn('text', { name: 'test_id' }) testId: string;
  @Column('text') name: string;
  /** JSON array of turns */
  @Column('text') turns: string;
  /** JSON object */
  @Column('text') state: string;
}
