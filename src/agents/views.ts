import { accountRef, agentRef, branchRef } from '../platform/ids/prefixed-ids';
import type { ServedContent } from './deployment-content';
import type {
  Agent as AgentRow,
  Branch as BranchRow,
  BranchTopic as BranchTopicRow,
  Deployment as DeploymentRow,
} from '../../projections/agents/queries';

export const agentView = (row: AgentRow) => ({
  accountId: accountRef(row.accountId),
  agentId: agentRef(row.id),
  agentName: row.name,
  createdAt: row.createdAt,
  updatedAt: row.updatedAt,
  branchCount: row.branchCount,
});

export const branchView = (row: BranchRow) => ({
  branchId: branchRef(row.id),
  branchName: row.name,
  sequenceId: String(row.baseSequence),
  status: row.status as 'open' | 'merged',
  createdAt: row.createdAt,
});

export const topicView = (row: BranchTopicRow) => ({
  id: row.topicId,
  name: row.name,
  content: row.content,
  actions: row.actions,
  exampleQueries: { queries: JSON.parse(row.exampleQueries) as string[] },
  isActive: row.isActive,
});

export const deploymentView = (row: DeploymentRow) => ({
  id: row.id,
  accountId: accountRef(row.accountId),
  agentId: agentRef(row.agentId),
  environment: row.environment,
  version: row.version,
  artifactVersion: row.artifactVersion,
  createdBy: row.createdBy,
  createdAt: row.createdAt,
  message: row.message,
});

/** What a deployment serves, topics shaped as the topics routes show them (Studio diffs two of these). */
export const deploymentContentView = (content: ServedContent) => ({
  deploymentId: content.deploymentId,
  environment: content.environment,
  version: content.version,
  behavior: content.behavior,
  topics: content.topics.map((t) => ({
    id: t.id,
    name: t.name,
    content: t.content,
    actions: t.actions,
    exampleQueries: { queries: t.exampleQueries },
    isActive: t.isActive,
  })),
});
