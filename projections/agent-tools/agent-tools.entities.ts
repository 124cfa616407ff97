import { Column, Entity, Index, PrimaryColumn } from 'typeorm';

/** The tools on each branch, `main` included (branch id `main`), like topics (contract §20). */
@Entity('branch_tool')
@Index(['agentId', 'branchId', 'name'], { unique: true })
export class BranchToolRow {
  @PrimaryColumn('text', { name: 'agent_id' }) agentId: string;
  @PrimaryColumn('text', { name: 'branch_id' }) branchId: string;
  @PrimaryColumn('text', { name: 'tool_id' }) toolId: string;
  @Column('text') name: string;
  /** JSON of the whole tool (headers sealed) */
  @Column('text') tool: string;
}

/** Main's tools at each sequence a merge changed them: what a deployment of that sequence (or a later one with no tool change) calls. */
@Entity('main_tool_version')
export class MainToolVersionRow {
  @PrimaryColumn('text', { name: 'agent_id' }) agentId: string;
  @PrimaryColumn('integer') sequence: number;
  /** JSON array of tools (headers sealed), by name */
  @Column('text') tools: string;
}

/** The agent's tool secret, sealed with the server secret. */
@Entity('agent_tool_secret')
export class AgentToolSecretRow {
  @PrimaryColumn('text', { name: 'agent_id' }) agentId: string;
  @Column('text', { name: 'sealed_secret' }) sealedSecret: string;
  @Column('text', { name: 'secret_last4' }) secretLast4: string;
  @Column('text', { name: 'issued_at' }) issuedAt: string;
}
