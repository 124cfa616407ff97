import { Column, Entity, PrimaryColumn } from 'typeorm';

/** The runtime settings of each branch, `main` included (branch id `main`): only the fields set, as JSON. */
@Entity('branch_settings')
export class BranchSettingsRow {
  @PrimaryColumn('text', { name: 'agent_id' }) agentId: string;
  @PrimaryColumn('text', { name: 'branch_id' }) branchId: string;
  @Column('text') settings: string;
}

/** main's runtime settings at each sequence: what every deployment of that sequence runs with, forever. */
@Entity('main_settings')
export class MainSettingsRow {
  @PrimaryColumn('text', { name: 'agent_id' }) agentId: string;
  @PrimaryColumn('integer') sequence: number;
  @Column('text') settings: string;
}
