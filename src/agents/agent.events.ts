import type { DomainEvent } from '../commands/decider';
import type { AgentToolEvent, Tool } from './agent-tools.events';
import type { RuntimeSettings } from './runtime-settings.types';

// the settings an edit event carries, for the read models that keep them
export type { RuntimeSettings } from './runtime-settings.types';

export const ENVIRONMENTS = ['sandbox', 'pre-release', 'live'] as const;
export type Environment = (typeof ENVIRONMENTS)[number];

/** The content fields of a knowledge base topic (its identity on a branch is `id`; across a merge, `name`). */
export interface TopicContent {
  name: string;
  content: string;
  exampleQueries: string[];
  actions: string;
  isActive: boolean;
}

export interface Topic extends TopicContent {
  id: string;
}

/** What one turn of a test case expects of the agent's answer (contract §19); every field optional. */
export interface TestExpectation {
  topic?: string;
  contains?: string;
  not_contains?: string;
  actions?: string[];
  handoff?: boolean;
  out_of_domain?: boolean;
  end_conversation?: boolean;
}

export interface TestTurn {
  user: string;
  expect?: TestExpectation;
}

/** The content fields of a test case (its identity on a branch is `id`; across a merge, `name`, like a topic). */
export interface TestCaseContent {
  name: string;
  turns: TestTurn[];
  state: Record<string, unknown>;
}

export interface TestCase extends TestCaseContent {
  id: string;
}

export interface DeploymentRecord {
  deploymentId: string;
  environment: Environment;
  /** main's sequence it serves (the same across promotions) */
  version: number;
  /** increases with every deployment of the agent */
  artifactVersion: number;
  createdBy: string;
  message: string;
  createdAt: string;
  promotedFrom: string | null;
}

export interface MergeChanges {
  behavior?: string;
  /** full topics as they now are on main */
  upserted: Topic[];
  /** names of topics removed from main */
  removed: string[];
  /** test cases changed on main (absent in merges recorded before agent tests: none changed) */
  tests?: { upserted: TestCase[]; removed: string[] };
  /** agent tools changed on main (contract §20; absent: none changed) */
  tools?: { upserted: Tool[]; removed: string[] };
  /** main's runtime settings, whole, when the merge changed them (absent: unchanged) */
  settings?: RuntimeSettings;
}

export type AgentEvent =
  | AgentToolEvent
  | DomainEvent<
      'AgentCreated',
      { agentId: string; accountId: string; name: string; greeting: string; languageCode: string; createdAt: string }
    >
  | DomainEvent<'AgentDeleted', { agentId: string; accountId: string; deletedAt: string }>
  | DomainEvent<
      'BranchCreated',
      { agentId: string; branchId: string; branchName: string; baseSequence: number; createdAt: string }
    >
  | DomainEvent<'BranchDeleted', { agentId: string; branchId: string; deletedAt: string }>
  | DomainEvent<'BehaviorEdited', { agentId: string; branchId: string; behavior: string; editedAt: string }>
  | DomainEvent<'TopicAdded', { agentId: string; branchId: string; topic: Topic; addedAt: string }>
  | DomainEvent<'TopicEdited', { agentId: string; branchId: string; topic: Topic; editedAt: string }>
  | DomainEvent<'TopicRemoved', { agentId: string; branchId: string; topicId: string; name: string; removedAt: string }>
  | DomainEvent<'TestCaseAdded', { agentId: string; branchId: string; test: TestCase; addedAt: string }>
  | DomainEvent<'TestCaseEdited', { agentId: string; branchId: string; test: TestCase; editedAt: string }>
  | DomainEvent<
      'TestCaseRemoved',
      { agentId: string; branchId: string; testId: string; name: string; removedAt: string }
    >
  // runtime settings (runtime-settings.ts): the branch's whole settings after the edit
  | DomainEvent<
      'RuntimeSettingsEdited',
      { agentId: string; branchId: string; settings: RuntimeSettings; editedAt: string }
    >
  | DomainEvent<
      'BranchMerged',
      { agentId: string; branchId: string; sequence: number; message: string; changes: MergeChanges; mergedAt: string }
    >
  | DomainEvent<'DeploymentCreated', { agentId: string; accountId: string; deployment: DeploymentRecord }>
  | DomainEvent<
      'DeploymentActivated',
      {
        agentId: string;
        accountId: string;
        deploymentId: string;
        environment: Environment;
        message: string;
        activatedAt: string;
      }
    >;

export const agentStream = (agentId: string) => `agent-${agentId}`;
