import type { Decider } from '../commands/decider';
import { conflict, DomainError, notFound } from '../platform/errors/domain-error';
import { checkFields, type FieldKind } from '../platform/validation/field-checks';
import {
  ENVIRONMENTS,
  type AgentEvent,
  type DeploymentRecord,
  type Environment,
  type TestCase,
  type TestCaseContent,
  type Topic,
  type TopicContent,
} from './agent.events';
import { withExampleQuery } from './example-queries';
import { applyChanges, threeWayMerge, type Content, type Resolution } from './merge';
import {
  decideTool,
  isToolCommand,
  toolNamesOf,
  withTool,
  withoutTool,
  type AgentToolCommand,
} from './agent-tools.decider';
import { applySettingsPatch, sameSettings, type RuntimeSettingsPatch } from './runtime-settings';

interface Branch {
  id: string;
  name: string;
  baseSequence: number;
  status: 'open' | 'merged' | 'deleted';
  content: Content;
  /** topic id → name, to find a topic by id on this branch */
  topicNames: ReadonlyMap<string, string>;
  /** test case id → name, likewise */
  testNames: ReadonlyMap<string, string>;
  /** tool id → name, likewise (agent-tools.decider.ts) */
  toolNames?: ReadonlyMap<string, string>;
  /** how many events shaped the branch: its content version, which draft chat caches its topic index by */
  version?: number;
}

export interface AgentState {
  exists: boolean;
  deleted: boolean;
  agentId: string;
  accountId: string;
  mainSequence: number;
  /** main's content at every sequence: the base of any branch and what deployments serve */
  snapshots: ReadonlyMap<number, Content>;
  branches: ReadonlyMap<string, Branch>;
  branchNames: ReadonlySet<string>;
  deployments: ReadonlyMap<string, DeploymentRecord>;
  active: Readonly<Partial<Record<Environment, string>>>;
  artifactVersion: number;
  /** the agent's tool secret was issued (contract §20) */
  hasToolSecret?: boolean;
}

export type AgentCommand =
  | AgentToolCommand
  | {
      type: 'CreateAgent';
      agentId: string;
      accountId: string;
      name: string;
      greeting: string;
      languageCode: string;
      now: string;
    }
  | { type: 'DeleteAgent'; now: string }
  | { type: 'CreateBranch'; branchId: string; branchName: string; now: string }
  | { type: 'DeleteBranch'; branchId: string; now: string }
  | { type: 'EditBehavior'; branchId: string; behavior: string; now: string }
  | { type: 'AddTopic'; branchId: string; topic: Topic; now: string }
  | { type: 'EditTopic'; branchId: string; topicId: string; changes: Partial<TopicContent>; now: string }
  /** appends words to a topic's example queries unless it has them (the learning loop): an edit like any other */
  | { type: 'AddExampleQuery'; branchId: string; topicId: string; query: string; now: string }
  | { type: 'RemoveTopic'; branchId: string; topicId: string; now: string }
  | { type: 'AddTestCase'; branchId: string; test: TestCase; now: string }
  | { type: 'EditTestCase'; branchId: string; testId: string; changes: Partial<TestCaseContent>; now: string }
  | { type: 'RemoveTestCase'; branchId: string; testId: string; now: string }
  | { type: 'EditRuntimeSettings'; branchId: string; changes: RuntimeSettingsPatch; now: string }
  | {
      type: 'MergeBranch';
      branchId: string;
      message: string;
      resolutions: Resolution[];
      deploymentId: string;
      actor: string;
      now: string;
    }
  | {
      type: 'Promote';
      deploymentId: string;
      target: Environment | null;
      newDeploymentId: string;
      actor: string;
      message: string;
      now: string;
    }
  | { type: 'Rollback'; deploymentId: string; message: string; now: string };

export const MAIN = 'main';
const MAIN_IS_READ_ONLY = 'main cannot be updated directly; edit a branch and merge it';

const EMPTY: Content = { behavior: '', topics: new Map(), tests: new Map(), settings: {} };

const initialState = (): AgentState => ({
  exists: false,
  deleted: false,
  agentId: '',
  accountId: '',
  mainSequence: 0,
  snapshots: new Map([[0, EMPTY]]),
  branches: new Map(),
  branchNames: new Set([MAIN]),
  deployments: new Map(),
  active: {},
  artifactVersion: 0,
});

function withBranch(state: AgentState, branch: Branch): AgentState {
  const version = (state.branches.get(branch.id)?.version ?? 0) + 1;
  return { ...state, branches: new Map(state.branches).set(branch.id, { ...branch, version }) };
}

/** What draft chat reads of a branch (contract §26): its content now and that content's version. */
export interface BranchDraft {
  branchId: string;
  baseSequence: number;
  version: number;
  content: Content;
}

/**
 * A branch's current content, for talking to it without a merge; `main` is main's newest content.
 * An unknown or deleted branch is not found; a merged one is refused, since its content is on main.
 */
export function branchDraft(state: AgentState, branchId: string): BranchDraft {
  if (branchId === MAIN)
    return {
      branchId,
      baseSequence: state.mainSequence,
      version: state.mainSequence,
      content: state.snapshots.get(state.mainSequence) ?? EMPTY,
    };
  const branch = state.branches.get(branchId);
  if (!branch || branch.status === 'deleted') throw notFound('BRANCH_NOT_FOUND', 'branch not found');
  if (branch.status === 'merged')
    throw conflict(
      'BRANCH_MERGED',
      'this branch was merged: its changes are on main; chat with an environment or a new branch',
    );
  return { branchId, baseSequence: branch.baseSequence, version: branch.version ?? 0, content: branch.content };
}

function withTopic(branch: Branch, topic: Topic, previousName?: string): Branch {
  const topics = new Map(branch.content.topics);
  if (previousName !== undefined) topics.delete(previousName);
  topics.set(topic.name, topic);
  return {
    ...branch,
    content: { ...branch.content, topics },
    topicNames: new Map(branch.topicNames).set(topic.id, topic.name),
  };
}

function withTest(branch: Branch, test: TestCase, previousName?: string): Branch {
  const tests = new Map(branch.content.tests);
  if (previousName !== undefined) tests.delete(previousName);
  tests.set(test.name, test);
  return {
    ...branch,
    content: { ...branch.content, tests },
    testNames: new Map(branch.testNames).set(test.id, test.name),
  };
}

function evolve(state: AgentState, event: AgentEvent): AgentState {
  switch (event.type) {
    case 'AgentCreated':
      return { ...state, exists: true, agentId: event.data.agentId, accountId: event.data.accountId };
    case 'AgentDeleted':
      return { ...state, deleted: true };
    case 'BranchCreated': {
      const content = state.snapshots.get(event.data.baseSequence) ?? EMPTY;
      const topicNames = new Map([...content.topics.values()].map((t) => [t.id, t.name] as const));
      const testNames = new Map([...content.tests.values()].map((t) => [t.id, t.name] as const));
      const branch: Branch = {
        id: event.data.branchId,
        name: event.data.branchName,
        baseSequence: event.data.baseSequence,
        status: 'open',
        content,
        topicNames,
        testNames,
        toolNames: toolNamesOf(content),
      };
      return { ...withBranch(state, branch), branchNames: new Set(state.branchNames).add(event.data.branchName) };
    }
    case 'BranchDeleted': {
      const branch = state.branches.get(event.data.branchId)!;
      const names = new Set(state.branchNames);
      names.delete(branch.name);
      return { ...withBranch(state, { ...branch, status: 'deleted' }), branchNames: names };
    }
    case 'BehaviorEdited': {
      const branch = state.branches.get(event.data.branchId)!;
      return withBranch(state, { ...branch, content: { ...branch.content, behavior: event.data.behavior } });
    }
    case 'TopicAdded':
      return withBranch(state, withTopic(state.branches.get(event.data.branchId)!, event.data.topic));
    case 'TopicEdited': {
      const branch = state.branches.get(event.data.branchId)!;
      return withBranch(state, withTopic(branch, event.data.topic, branch.topicNames.get(event.data.topic.id)));
    }
    case 'TopicRemoved': {
      const branch = state.branches.get(event.data.branchId)!;
      const topics = new Map(branch.content.topics);
      topics.delete(event.data.name);
      const topicNames = new Map(branch.topicNames);
      topicNames.delete(event.data.topicId);
      return withBranch(state, { ...branch, content: { ...branch.content, topics }, topicNames });
    }
    case 'TestCaseAdded':
      return withBranch(state, withTest(state.branches.get(event.data.branchId)!, event.data.test));
    case 'TestCaseEdited': {
      const branch = state.branches.get(event.data.branchId)!;
      return withBranch(state, withTest(branch, event.data.test, branch.testNames.get(event.data.test.id)));
    }
    case 'TestCaseRemoved': {
      const branch = state.branches.get(event.data.branchId)!;
      const tests = new Map(branch.content.tests);
      tests.delete(event.data.name);
      const testNames = new Map(branch.testNames);
      testNames.delete(event.data.testId);
      return withBranch(state, { ...branch, content: { ...branch.content, tests }, testNames });
    }
    case 'RuntimeSettingsEdited': {
      const branch = state.branches.get(event.data.branchId)!;
      return withBranch(state, { ...branch, content: { ...branch.content, settings: event.data.settings } });
    }
    case 'BranchMerged': {
      const main = applyChanges(state.snapshots.get(state.mainSequence)!, event.data.changes);
      const branch = state.branches.get(event.data.branchId)!;
      return {
        ...withBranch(state, { ...branch, status: 'merged' }),
        mainSequence: event.data.sequence,
        snapshots: new Map(state.snapshots).set(event.data.sequence, main),
      };
    }
    case 'DeploymentCreated': {
      const d = event.data.deployment;
      return {
        ...state,
        deployments: new Map(state.deployments).set(d.deploymentId, d),
        active: { ...state.active, [d.environment]: d.deploymentId },
        artifactVersion: Math.max(state.artifactVersion, d.artifactVersion),
      };
    }
    case 'DeploymentActivated':
      return { ...state, active: { ...state.active, [event.data.environment]: event.data.deploymentId } };
    // agent tools (contract §20): agent-tools.decider.ts
    case 'ToolAdded':
      return withBranch(state, withTool(state.branches.get(event.data.branchId)!, event.data.tool));
    case 'ToolEdited': {
      const branch = state.branches.get(event.data.branchId)!;
      const previous = (branch.toolNames ?? toolNamesOf(branch.content)).get(event.data.tool.id);
      return withBranch(state, withTool(branch, event.data.tool, previous));
    }
    case 'ToolRemoved':
      return withBranch(
        state,
        withoutTool(state.branches.get(event.data.branchId)!, event.data.toolId, event.data.name),
      );
    case 'ToolSecretIssued':
      return { ...state, hasToolSecret: true };
  }
}

function openBranch(state: AgentState, branchId: string): Branch {
  if (branchId === MAIN) throw new DomainError('MAIN_READ_ONLY', MAIN_IS_READ_ONLY, 422);
  const branch = state.branches.get(branchId);
  if (!branch || branch.status === 'deleted') throw notFound('BRANCH_NOT_FOUND', 'branch not found');
  if (branch.status === 'merged')
    throw conflict('BRANCH_MERGED', 'this branch was merged and is read-only; create a new branch');
  return branch;
}

function decide(command: AgentCommand, state: AgentState): AgentEvent[] {
  if (command.type === 'CreateAgent') {
    if (state.exists) throw conflict('AGENT_EXISTS', 'agent already exists');
    const { agentId, accountId, name, greeting, languageCode, now } = command;
    return [{ type: 'AgentCreated', data: { agentId, accountId, name, greeting, languageCode, createdAt: now } }];
  }
  if (!state.exists || state.deleted) throw notFound('AGENT_NOT_FOUND', 'agent not found');
  const agentId = state.agentId;
  if (isToolCommand(command))
    return decideTool(command, { agentId, hasToolSecret: state.hasToolSecret === true }, (branchId) =>
      openBranch(state, branchId),
    );
  switch (command.type) {
    case 'DeleteAgent':
      return [{ type: 'AgentDeleted', data: { agentId, accountId: state.accountId, deletedAt: command.now } }];
    case 'CreateBranch':
      if (state.branchNames.has(command.branchName))
        throw conflict('BRANCH_EXISTS', `a branch named ${command.branchName} exists`);
      return [
        {
          type: 'BranchCreated',
          data: {
            agentId,
            branchId: command.branchId,
            branchName: command.branchName,
            baseSequence: state.mainSequence,
            createdAt: command.now,
          },
        },
      ];
    case 'DeleteBranch': {
      if (command.branchId === MAIN) throw new DomainError('MAIN_READ_ONLY', MAIN_IS_READ_ONLY, 422);
      const branch = state.branches.get(command.branchId);
      if (!branch || branch.status === 'deleted') throw notFound('BRANCH_NOT_FOUND', 'branch not found');
      return [{ type: 'BranchDeleted', data: { agentId, branchId: branch.id, deletedAt: command.now } }];
    }
    case 'EditBehavior': {
      const branch = openBranch(state, command.branchId);
      if (branch.content.behavior === command.behavior) return [];
      return [
        {
          type: 'BehaviorEdited',
          data: { agentId, branchId: branch.id, behavior: command.behavior, editedAt: command.now },
        },
      ];
    }
    case 'AddTopic': {
      checkFields(command.topic, TOPIC_FIELDS);
      const branch = openBranch(state, command.branchId);
      if (branch.content.topics.has(command.topic.name))
        throw conflict('TOPIC_EXISTS', `a topic named ${command.topic.name} exists on this branch`);
      return [
        { type: 'TopicAdded', data: { agentId, branchId: branch.id, topic: command.topic, addedAt: command.now } },
      ];
    }
    case 'EditTopic': {
      checkFields(command.changes, TOPIC_FIELDS, true);
      const branch = openBranch(state, command.branchId);
      const name = branch.topicNames.get(command.topicId);
      if (name === undefined) throw notFound('TOPIC_NOT_FOUND', 'topic not found');
      const current = branch.content.topics.get(name)!;
      const topic: Topic = { ...current, ...definedOnly(command.changes), id: current.id };
      if (topic.name !== name && branch.content.topics.has(topic.name))
        throw conflict('TOPIC_EXISTS', `a topic named ${topic.name} exists on this branch`);
      return [{ type: 'TopicEdited', data: { agentId, branchId: branch.id, topic, editedAt: command.now } }];
    }
    case 'AddExampleQuery': {
      const branch = openBranch(state, command.branchId);
      const name = branch.topicNames.get(command.topicId);
      if (name === undefined) throw notFound('TOPIC_NOT_FOUND', 'topic not found');
      const current = branch.content.topics.get(name)!;
      const exampleQueries = withExampleQuery(current.exampleQueries, command.query);
      if (exampleQueries === null) return [];
      const topic: Topic = { ...current, exampleQueries };
      return [{ type: 'TopicEdited', data: { agentId, branchId: branch.id, topic, editedAt: command.now } }];
    }
    case 'RemoveTopic': {
      const branch = openBranch(state, command.branchId);
      const name = branch.topicNames.get(command.topicId);
      if (name === undefined) throw notFound('TOPIC_NOT_FOUND', 'topic not found');
      return [
        {
          type: 'TopicRemoved',
          data: { agentId, branchId: branch.id, topicId: command.topicId, name, removedAt: command.now },
        },
      ];
    }
    case 'AddTestCase': {
      const branch = openBranch(state, command.branchId);
      if (branch.content.tests.has(command.test.name))
        throw conflict('TEST_EXISTS', `a test named ${command.test.name} exists on this branch`);
      return [
        { type: 'TestCaseAdded', data: { agentId, branchId: branch.id, test: command.test, addedAt: command.now } },
      ];
    }
    case 'EditTestCase': {
      const branch = openBranch(state, command.branchId);
      const name = branch.testNames.get(command.testId);
      if (name === undefined) throw notFound('TEST_NOT_FOUND', 'test not found');
      const current = branch.content.tests.get(name)!;
      const test: TestCase = { ...current, ...definedOnly(command.changes), id: current.id };
      if (test.name !== name && branch.content.tests.has(test.name))
        throw conflict('TEST_EXISTS', `a test named ${test.name} exists on this branch`);
      return [{ type: 'TestCaseEdited', data: { agentId, branchId: branch.id, test, editedAt: command.now } }];
    }
    case 'RemoveTestCase': {
      const branch = openBranch(state, command.branchId);
      const name = branch.testNames.get(command.testId);
      if (name === undefined) throw notFound('TEST_NOT_FOUND', 'test not found');
      return [
        {
          type: 'TestCaseRemoved',
          data: { agentId, branchId: branch.id, testId: command.testId, name, removedAt: command.now },
        },
      ];
    }
    case 'MergeBranch': {
      const branch = openBranch(state, command.branchId);
      const base = state.snapshots.get(branch.baseSequence) ?? EMPTY;
      const ours = state.snapshots.get(state.mainSequence)!;
      const outcome = threeWayMerge(base, ours, branch.content, command.resolutions);
      if (!outcome.ok) {
        throw new DomainError(
          'MERGE_CONFLICT',
          `the branch conflicts with main on ${outcome.conflicts.length} item(s); resolve them with conflictResolutions`,
          400,
          { conflicts: outcome.conflicts },
        );
      }
      const sequence = state.mainSequence + 1;
      const deployment: DeploymentRecord = {
        deploymentId: command.deploymentId,
        environment: 'sandbox',
        version: sequence,
        artifactVersion: state.artifactVersion + 1,
        createdBy: command.actor,
        message: command.message,
        createdAt: command.now,
        promotedFrom: null,
      };
      // Merge and publish to sandbox are one append: there is never a merge without its deployment.
      return [
        {
          type: 'BranchMerged',
          data: {
            agentId,
            branchId: branch.id,
            sequence,
            message: command.message,
            changes: outcome.changes,
            mergedAt: command.now,
          },
        },
        { type: 'DeploymentCreated', data: { agentId, accountId: state.accountId, deployment } },
      ];
    }
    case 'Promote': {
      const source = state.deployments.get(command.deploymentId);
      if (!source) throw notFound('DEPLOYMENT_NOT_FOUND', 'deployment not found');
      const from = ENVIRONMENTS.indexOf(source.environment);
      const target = command.target ?? ENVIRONMENTS[from + 1];
      if (target === undefined)
        throw new DomainError('INVALID_PROMOTION', 'a live deployment has no later stage to promote to', 422);
      if (ENVIRONMENTS.indexOf(target) <= from) {
        throw new DomainError(
          'INVALID_PROMOTION',
          `cannot promote a ${source.environment} deployment to ${target}: promotion goes forward (sandbox, pre-release, live)`,
          422,
        );
      }
      const deployment: DeploymentRecord = {
        deploymentId: command.newDeploymentId,
        environment: target,
        version: source.version,
        artifactVersion: state.artifactVersion + 1,
        createdBy: command.actor,
        message: command.message || source.message,
        createdAt: command.now,
        promotedFrom: source.deploymentId,
      };
      return [{ type: 'DeploymentCreated', data: { agentId, accountId: state.accountId, deployment } }];
    }
    case 'EditRuntimeSettings': {
      const branch = openBranch(state, command.branchId);
      const settings = applySettingsPatch(branch.content.settings, command.changes);
      if (sameSettings(settings, branch.content.settings)) return [];
      return [
        { type: 'RuntimeSettingsEdited', data: { agentId, branchId: branch.id, settings, editedAt: command.now } },
      ];
    }
    case 'Rollback': {
      const target = state.deployments.get(command.deploymentId);
      if (!target) throw notFound('DEPLOYMENT_NOT_FOUND', 'deployment not found');
      if (state.active[target.environment] === target.deploymentId)
        throw conflict('DEPLOYMENT_ALREADY_ACTIVE', `this deployment is already active in ${target.environment}`);
      return [
        {
          type: 'DeploymentActivated',
          data: {
            agentId,
            accountId: state.accountId,
            deploymentId: target.deploymentId,
            environment: target.environment,
            message: command.message,
            activatedAt: command.now,
          },
        },
      ];
    }
  }
}

/** What a recorded topic holds: the agents projection's topic columns are all NOT NULL. */
const TOPIC_FIELDS: Record<keyof TopicContent, FieldKind> = {
  name: 'string',
  content: 'string',
  exampleQueries: 'string[]',
  actions: 'string',
  isActive: 'boolean',
};

function definedOnly<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;
}

export const agentDecider: Decider<AgentState, AgentCommand, AgentEvent> = { initialState, evolve, decide };
