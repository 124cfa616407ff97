import type { AgentEvent, Topic } from '../../src/agents/agent.events';
import { defineProjection, handlerFor } from '../../src/read-models/projection';
import type { Rows } from '../../src/read-models/apply/rows';
import {
  ActiveDeploymentRow,
  AgentRow,
  BranchRow,
  BranchTopicRow,
  DeploymentRow,
  MainVersionRow,
} from './agents.entities';
import { portableSql } from '../../src/platform/database/portable-sql';
import { AGENTS_READ_MODEL } from './name';

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

async function touch(rows: Rows, agentId: string, at: string, change: Partial<AgentRow> = {}) {
  await rows.update(AgentRow, { id: agentId }, { updatedAt: at, ...change });
}

/** Agents, their branches and topics, main's versions, and deployments: the build side's reads. */
export const agentsProjection = defineProjection({
  name: AGENTS_READ_MODEL,
  version: 1,
  entities: [AgentRow, BranchRow, BranchTopicRow, MainVersionRow, DeploymentRow, ActiveDeploymentRow],
  handles: {
    AgentCreated: on<'AgentCreated'>(async ({ data }, _em, rows) => {
      await rows.upsert(AgentRow, {
        id: data.agentId,
        accountId: data.accountId,
        name: data.name,
        greeting: data.greeting,
        languageCode: data.languageCode,
        branchCount: 1,
        mainSequence: 0,
        createdAt: data.createdAt,
        updatedAt: data.createdAt,
        deletedAt: null,
      });
      await rows.upsert(BranchRow, {
        agentId: data.agentId,
        id: MAIN,
        name: MAIN,
        baseSequence: 0,
        status: 'open',
        behavior: '',
        createdAt: data.createdAt,
      });
      await rows.upsert(MainVersionRow, { agentId: data.agentId, sequence: 0, behavior: '', topics: '[]' });
    }),
    AgentDeleted: on<'AgentDeleted'>(async ({ data }, _em, rows) =>
      touch(rows, data.agentId, data.deletedAt, { deletedAt: data.deletedAt }),
    ),
    BranchCreated: on<'BranchCreated'>(async ({ data }, em, rows) => {
      const main = (await rows.findOne(BranchRow, { agentId: data.agentId, id: MAIN }))!;
      await rows.upsert(BranchRow, {
        agentId: data.agentId,
        id: data.branchId,
        name: data.branchName,
        baseSequence: data.baseSequence,
        status: 'open',
        behavior: main.behavior,
        createdAt: data.createdAt,
      });
      // The branch starts as a copy of main's topics: one statement, however many there are.
      await em.query(
        portableSql(
          em,
          `INSERT INTO branch_topic (agent_id, branch_id, topic_id, name, content, example_queries, actions, is_active)
           SELECT agent_id, ?, topic_id, name, content, example_queries, actions, is_active FROM branch_topic WHERE agent_id = ? AND branch_id = ?
           ON CONFLICT (agent_id, branch_id, topic_id) DO UPDATE SET name = excluded.name, content = excluded.content,
             example_queries = excluded.example_queries, actions = excluded.actions, is_active = excluded.is_active`,
        ),
        [data.branchId, data.agentId, MAIN],
      );
      await rows.increment(AgentRow, { id: data.agentId }, 'branchCount', 1);
      await touch(rows, data.agentId, data.createdAt);
    }),
    BranchDeleted: on<'BranchDeleted'>(async ({ data }, _em, rows) => {
      await rows.update(BranchRow, { agentId: data.agentId, id: data.branchId }, { status: 'deleted' });
      await rows.delete(BranchTopicRow, { agentId: data.agentId, branchId: data.branchId });
      await rows.increment(AgentRow, { id: data.agentId }, 'branchCount', -1);
      await touch(rows, data.agentId, data.deletedAt);
    }),
    BehaviorEdited: on<'BehaviorEdited'>(async ({ data }, _em, rows) => {
      await rows.update(BranchRow, { agentId: data.agentId, id: data.branchId }, { behavior: data.behavior });
      await touch(rows, data.agentId, data.editedAt);
    }),
    TopicAdded: on<'TopicAdded'>(async ({ data }, _em, rows) => {
      await rows.insert(BranchTopicRow, topicRow(data.agentId, data.branchId, data.topic));
      await touch(rows, data.agentId, data.addedAt);
    }),
    TopicEdited: on<'TopicEdited'>(async ({ data }, _em, rows) => {
      const { agentId, topicId, ...row } = topicRow(data.agentId, data.branchId, data.topic);
      await rows.update(BranchTopicRow, { agentId, branchId: data.branchId, topicId }, row);
      await touch(rows, data.agentId, data.editedAt);
    }),
    TopicRemoved: on<'TopicRemoved'>(async ({ data }, _em, rows) => {
      await rows.delete(BranchTopicRow, { agentId: data.agentId, branchId: data.branchId, topicId: data.topicId });
      await touch(rows, data.agentId, data.removedAt);
    }),
    BranchMerged: on<'BranchMerged'>(async ({ data }, em, rows) => {
      const { agentId, changes } = data;
      await rows.update(BranchRow, { agentId, id: data.branchId }, { status: 'merged' });
      if (changes.behavior !== undefined)
        await rows.update(BranchRow, { agentId, id: MAIN }, { behavior: changes.behavior });
      // All replaced rows go first: a renamed topic may take a name another one just left.
      for (const name of [...changes.removed, ...changes.upserted.map((t) => t.name)])
        await rows.delete(BranchTopicRow, { agentId, branchId: MAIN, name });
      for (const topic of changes.upserted) await rows.insert(BranchTopicRow, topicRow(agentId, MAIN, topic));
      const main = (await rows.findOne(BranchRow, { agentId, id: MAIN }))!;
      const topics = await em.find(BranchTopicRow, { where: { agentId, branchId: MAIN }, order: { name: 'ASC' } });
      const snapshot = topics.map((t) => ({
        id: t.topicId,
        name: t.name,
        content: t.content,
        exampleQueries: JSON.parse(t.exampleQueries),
        actions: t.actions,
        isActive: t.isActive,
      }));
      await rows.upsert(MainVersionRow, {
        agentId,
        sequence: data.sequence,
        behavior: main.behavior,
        topics: JSON.stringify(snapshot),
      });
      await touch(rows, agentId, data.mergedAt, { mainSequence: data.sequence });
    }),
    DeploymentCreated: on<'DeploymentCreated'>(async ({ data }, _em, rows) => {
      const d = data.deployment;
      await rows.upsert(DeploymentRow, {
        id: d.deploymentId,
        agentId: data.agentId,
        accountId: data.accountId,
        environment: d.environment,
        version: d.version,
        artifactVersion: d.artifactVersion,
        createdBy: d.createdBy,
        createdAt: d.createdAt,
        message: d.message,
        promotedFrom: d.promotedFrom,
      });
      await rows.upsert(ActiveDeploymentRow, {
        agentId: data.agentId,
        environment: d.environment,
        deploymentId: d.deploymentId,
      });
      await touch(rows, data.agentId, d.createdAt);
    }),
    DeploymentActivated: on<'DeploymentActivated'>(async ({ data }, _em, rows) => {
      await rows.upsert(ActiveDeploymentRow, {
        agentId: data.agentId,
        environment: data.environment,
        deploymentId: data.deploymentId,
      });
      await touch(rows, data.agentId, data.activatedAt);
    }),
  },
});
