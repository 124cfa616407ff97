import { Column, Entity, Index, PrimaryColumn } from 'typeorm';

@Entity('agent')
export class AgentRow {
  @PrimaryColumn('text') id: string;
  @Index() @Column('text', { name: 'account_id' }) accountId: string;
  @Column('text') name: string;
  @Column('text') greeting: string;
  @Column('text', { name: 'language_code' }) languageCode: string;
  @Column('integer', { name: 'branch_count' }) branchCount: number;
  @Column('integer', { name: 'main_sequence' }) mainSequence: number;
  @Column('text', { name: 'created_at' }) createdAt: string;
  @Column('text', { name: 'updated_at' }) updatedAt: string;
  @Column('text', { name: 'deleted_at', nullable: true }) deletedAt: string | null;
}

@Entity('branch')
export class BranchRow {
  @PrimaryColumn('text', { name: 'agent_id' }) agentId: string;
  @PrimaryColumn('text') id: string;
  @Column('text') name: string;
  @Column('integer', { name: 'base_sequence' }) baseSequence: number;
  @Column('text') status: string;
  @Column('text') behavior: string;
  @Column('text', { name: 'created_at' }) createdAt: string;
}

/** The topics on each branch, `main` included (branch id `main`). */
@Entity('branch_topic')
@Index(['agentId', 'branchId', 'name'], { unique: true })
export class BranchTopicRow {
  @PrimaryColumn('text', { name: 'agent_id' }) agentId: string;
  @PrimaryColumn('text', { name: 'branch_id' }) branchId: string;
  @PrimaryColumn('text', { name: 'topic_id' }) topicId: string;
  @Column('text') name: string;
  @Column('text') content: string;
  /** JSON array of strings */
  @Column('text', { name: 'example_queries' }) exampleQueries: string;
  @Column('text') actions: string;
  @Column('boolean', { name: 'is_active' }) isActive: boolean;
}

/** main as it was at each sequence: what every deployment of that sequence serves, forever. */
@Entity('main_version')
export class MainVersionRow {
  @PrimaryColumn('text', { name: 'agent_id' }) agentId: string;
  @PrimaryColumn('integer') sequence: number;
  @Column('text') behavior: string;
  /** JSON array of topics */
  @Column('text') topics: string;
}

@Entity('deployment')
@Index(['agentId', 'environment', 'artifactVersion'])
export class DeploymentRow {
  @PrimaryColumn('text') id: string;
  @Column('text', { name: 'agent_id' }) agentId: string;
  @Column('text', { name: 'account_id' }) accountId: string;
  @Column('text') environment: string;
  @Column('integer') version: number;
  @Column('integer', { name: 'artifact_version' }) artifactVersion: number;
  @Column('text', { name: 'created_by' }) createdBy: string;
  @Column('text', { name: 'created_at' }) createdAt: string;
  @Column('text') message: string;
  @Column('text', { name: 'promoted_from', nullable: true }) promotedFrom: string | null;
}

@Entity('active_deployment')
export class ActiveDeploymentRow {
  @PrimaryColumn('text', { name: 'agent_id' }) agentId: string;
  @PrimaryColumn('text') environment: string;
  @Column('text', { name: 'deployment_id' }) deploymentId: string;
}
