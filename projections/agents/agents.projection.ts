import type { EntityManager } from 'typeorm';
import type { AgentEvent, Topic } from '../../src/agents/agent.events';
import { defineProjection, handlerFor } from '../../src/read-models/projection';
import { ActiveDeploymentRow, AgentRow, BranchRow, BranchTopicRow, DeploymentRow, MainVersionRow } from './agents.entities';

const on = handlerFor<AgentEvent>();
const MAIN = 'main';

const topicRow = (agentId: string, branchId: string, t: Topic): BranchTopicRow => ({
  agentId,
  branchId,
  topicId: t.id,
  name: t.name,
  content: t.content,
  exampleQueries: JSON.stringify(t.exampleQueries),
  actions: t.actions,
  isActive: t.isActive,
});

async function touch(em: EntityManager, agentId: string, at: string, change: Partial<AgentRow> = {}) {
  await em.update(AgentRow, { id: agentId }, { updatedAt: at, ...change });
}

/** Agents, their branches and topics, main's versions, and deployments: the build side's reads. */
export const agentsProjection = defineProjection({
  name: 'agents',
  version: 1,
  entities: [AgentRow, BranchRow, BranchTopicRow, MainVersionRow, DeploymentRow, ActiveDeploymentRow],
  handles: {
    AgentCreated: on<'AgentCreated'>(async ({ data }, em) => {
      await em.upsert(
        AgentRow,
        { id: data.agentId, accountId: data.accountId, name: data.name, greeting: data.greeting, languageCode: data.languageCode, branchCount: 1, mainSequence: 0, createdAt: data.createdAt, updatedAt: data.createdAt, deletedAt: null },
        ['id'],
      );
      await em.upsert(BranchRow, { agentId: data.agentId, id: MAIN, name: MAIN, baseSequence: 0, status: 'open', behavior: '', createdAt: data.createdAt }, ['agentId', 'id']);
      await em.upsert(MainVersionRow, { agentId: data.agentId, sequence: 0, behavior: '', topics: '[]' }, ['agentId', 'sequence']);
    }),
    AgentDeleted: on<'AgentDeleted'>(async ({ data }, em) => touch(em, data.agentId, data.deletedAt, { deletedAt: data.deletedAt })),
    BranchCreated: on<'BranchCreated'>(async ({ data }, em) => {
      const main = await em.findOneByOrFail(BranchRow, { agentId: data.agentId, id: MAIN });
      await em.upsert(BranchRow, { agentId: data.agentId, id: data.branchId, name: data.branchName, baseSequence: data.baseSequence, status: 'open', behavior: main.behavior, createdAt: data.createdAt }, ['agentId', 'id']);
      // The branch starts as a copy of main's topics: one statement, however many there are.
      await em.query(
        `INSERT OR REPLACE INTO branch_topic (agent_id, branch_id, topic_id, name, content, example_queries, actions, is_active)
         SELECT agent_id, ?, topic_id, name, content, example_queries, actions, is_active FROM branch_topic WHERE agent_id = ? AND branch_id = ?`,
        [data.branchId, data.agentId, MAIN],
      );
      await em.increment(AgentRow, { id: data.agentId }, 'branchCount', 1);
      await touch(em, data.agentId, data.createdAt);
    }),
    BranchDeleted: on<'BranchDeleted'>(async ({ data }, em) => {
      await em.update(BranchRow, { agentId: data.agentId, id: data.branchId }, { status: 'deleted' });
      await em.delete(BranchTopicRow, { agentId: data.agentId, branchId: data.branchId });
      await em.decrement(AgentRow, { id: data.agentId }, 'branchCount', 1);
      await touch(em, data.agentId, data.deletedAt);
    }),
    BehaviorEdited: on<'BehaviorEdited'>(async ({ data }, em) => {
      await em.update(BranchRow, { agentId: data.agentId, id: data.branchId }, { behavior: data.behavior });
      await touch(em, data.agentId, data.editedAt);
    }),
    TopicAdded: on<'TopicAdded'>(async ({ data }, em) => {
      await em.insert(BranchTopicRow, topicRow(data.agentId, data.branchId, data.topic));
      await touch(em, data.agentId, data.addedAt);
    }),
    TopicEdited: on<'TopicEdited'>(async ({ data }, em) => {
      const { agentId, topicId, ...row } = topicRow(data.agentId, data.branchId, data.topic);
      await em.update(BranchTopicRow, { agentId, branchId: data.branchId, topicId }, row);
      await touch(em, data.agentId, data.editedAt);
    }),
    TopicRemoved: on<'TopicRemoved'>(async ({ data }, em) => {
      await em.delete(BranchTopicRow, { agentId: data.agentId, branchId: data.branchId, topicId: data.topicId });
      await touch(em, data.agentId, data.removedAt);
    }),
    BranchMerged: on<'BranchMerged'>(async ({ data }, em) => {
      const { agentId, changes } = data;
      await em.update(BranchRow, { agentId, id: data.branchId }, { status: 'merged' });
      if (changes.behavior !== undefined) await em.update(BranchRow, { agentId, id: MAIN }, { behavior: changes.behavior });
      // All replaced rows go first: a renamed topic may take a name another one just left.
      for (const name of [...changes.removed, ...changes.upserted.map((t) => t.name)]) await em.delete(BranchTopicRow, { agentId, branchId: MAIN, name });
      for (const topic of changes.upserted) await em.insert(BranchTopicRow, topicRow(agentId, MAIN, topic));
      const main = await em.findOneByOrFail(BranchRow, { agentId, id: MAIN });
      const topics = await em.find(BranchTopicRow, { where: { agentId, branchId: MAIN }, order: { name: 'ASC' } });
      const snapshot = topics.map((t) => ({ id: t.topicId, name: t.name, content: t.content, exampleQueries: JSON.parse(t.exampleQueries), actions: t.actions, isActive: t.isActive }));
      await em.upsert(MainVersionRow, { agentId, sequence: data.sequence, behavior: main.behavior, topics: JSON.stringify(snapshot) }, ['agentId', 'sequence']);
      await touch(em, agentId, data.mergedAt, { mainSequence: data.sequence });
    }),
    DeploymentCreated: on<'DeploymentCreated'>(async ({ data }, em) => {
      const d = data.deployment;
      await em.upsert(
        DeploymentRow,
        { id: d.deploymentId, agentId: data.agentId, accountId: data.accountId, environment: d.environment, version: d.version, artifactVersion: d.artifactVersion, createdBy: d.createdBy, createdAt: d.createdAt, message: d.message, promotedFrom: d.promotedFrom },
        ['id'],
      );
      await em.upsert(ActiveDeploymentRow, { agentId: data.agentId, environment: d.environment, deploymentId: d.deploymentId }, ['agentId', 'environment']);
      await touch(em, data.agentId, d.createdAt);
    }),
    DeploymentActivated: on<'DeploymentActivated'>(async ({ data }, em) => {
      await em.upsert(ActiveDeploymentRow, { agentId: data.agentId, environment: data.environment, deploymentId: data.deploymentId }, ['agentId', 'environment']);
      await touch(em, data.agentId, data.activatedAt);
    }),
  },
});
