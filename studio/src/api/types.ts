import type { AnswerOf } from './http';
import type { components, operations } from './schema';

/**
 * The shapes Studio reads. Where /openapi.json has a schema, the name is an alias of the generated
 * type (schema.d.ts); the rest are written from docs/api and contract §4-§8 because the document
 * types them loosely (debug-chat metadata, v3 conversations, audit events).
 */
type Schemas = components['schemas'];

export type Environment = 'sandbox' | 'pre-release' | 'live';
export const ENVIRONMENTS: Environment[] = ['sandbox', 'pre-release', 'live'];

export type ErrorEnvelope = Schemas['ErrorEnvelope'];
export type ApiKey = Schemas['ApiKey'];
export type Permission = ApiKey['permissions'][number];
export type Topic = Schemas['Topic'];
export type Deployment = Schemas['Deployment'];
export type AlertRule = Schemas['AlertRule'];
export type WebhookEndpoint = Schemas['WebhookEndpoint'];
export type ReadModelsStatus = AnswerOf<'get', '/admin/v1/read-models'>;
export type RebuildJob = Schemas['RebuildJob'];

export type AgentTool = Schemas['AgentTool'];
export type TestCase = Schemas['TestCase'];
export type TestTurn = Schemas['TestTurnDto'];
export type TestExpectation = Schemas['TestExpectationDto'];
export type TestRun = Schemas['TestRun'];

export type TopicInput = Omit<Topic, 'id'>;

export type Analytics = AnswerOf<'get', '/v1/{accountId}/{projectId}/analytics'>;
export type AnalyticsTotals = Analytics['totals'];
export type Unanswered = Analytics['unanswered'][number];
export type AnalyticsQuery = NonNullable<operations['Analytics_series']['parameters']['query']>;

export type ResolutionStrategy = 'ours' | 'theirs' | 'base';

export interface MergeConflict {
  path: string[];
  ours: unknown;
  theirs: unknown;
  base: unknown;
}

export interface ConflictResolution {
  path: string[];
  strategy: ResolutionStrategy;
}

export interface DeploymentContent {
  behavior: string;
  topics: Topic[];
}

/** What a debug chat talks to: an environment's active deployment, or a branch's draft. */
export type ChatTarget = { clientEnv: Environment } | { branchId: string };

export interface DebugTurn {
  conversationId: string;
  userInput: string;
  response: string;
  metadata: {
    state: Record<string, unknown>;
    metrics: Record<string, string | string[]>;
    functionEvents: unknown[];
    handoffDestination: string;
    retrievedTopics: string[];
    citedTopic: string;
    llmRequests: unknown[];
    [more: string]: unknown;
  };
  conversationEnded: boolean;
  delayedResponse: boolean;
}

interface ConversationTurn {
  user_input: string;
  user_input_datetime: string;
  agent_response: string;
  agent_response_datetime: string;
  is_ood: boolean;
  latency?: { total_s: number; stages: Record<string, number> };
  metadata?: Record<string, unknown>;
  [more: string]: unknown;
}

export interface Conversation {
  id: string;
  account_id: string;
  project_id: string;
  environment: Environment;
  started_at: string;
  channel: string;
  in_progress: boolean;
  num_turns: number;
  total_duration: number | null;
  handoff: boolean;
  state?: Record<string, unknown>;
  metrics?: Record<string, string | string[]>;
  turns?: ConversationTurn[] | null;
  /** post-call analysis (v3), null until the conversation ended and was analysed; `summary` only where transcripts show */
  analysis?: ConversationAnalysis | null;
  [more: string]: unknown;
}

interface ConversationAnalysis {
  outcome: 'contained' | 'handoff' | 'abandoned' | 'not_connected';
  topics: string[];
  summary?: string;
  fields: Record<string, string | number | boolean | null>;
  analyser: 'embedded' | 'model';
}

export interface ConversationPage {
  conversations: Conversation[];
  cursor: string | null;
  next_offset: number | null;
}

export interface AuditEvent {
  position: string | number;
  revision: number;
  type: string;
  occurred_at: string;
  actor: string;
  data: Record<string, unknown>;
}
