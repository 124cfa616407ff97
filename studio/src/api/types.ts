/**
 * The shapes Studio reads, written by hand from docs/api and contract §4-§8 until the OpenAPI
 * document exists; then these names become aliases of the generated schemas (see docs/studio.md).
 */
export type Environment = 'sandbox' | 'pre-release' | 'live';
export const ENVIRONMENTS: Environment[] = ['sandbox', 'pre-release', 'live'];

export interface ErrorEnvelope {
  success: false;
  error: string;
  error_id: string;
  error_code: string;
  error_message: string;
  data: unknown;
  errors?: Array<{ field: string; message: string }>;
}

export interface KeySelf {
  id: string;
  accountId: string;
  name: string;
  agents: 'all' | string[];
  permissions: string[];
  expiresAt: string;
  key: string;
}

export interface Account {
  accountId: string;
  name: string;
  region: string;
  createdAt: string;
}

export interface CreatedKey extends KeySelf {
  createdAt: string;
}

export interface Agent {
  agentId: string;
  agentName: string;
  accountId: string;
  responseSettings?: { greeting: string; languageCode?: string };
  createdAt?: string;
  [more: string]: unknown;
}

export interface Branch {
  branchId: string;
  branchName: string;
  sequenceId: string | number;
  status: 'open' | 'merged';
  createdAt: string;
}

export interface Topic {
  id: string;
  name: string;
  content: string;
  actions: string;
  exampleQueries: { queries: string[] };
  isActive: boolean;
}

export type TopicInput = Omit<Topic, 'id'>;

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

export interface MergeResult {
  sequence: string;
  message: string;
  testRunIds: string[];
}

export interface Deployment {
  id: string;
  accountId: string;
  agentId: string;
  environment: Environment;
  version: number;
  artifactVersion?: unknown;
  createdBy: string;
  createdAt: string;
  message: string;
}

export interface DeploymentContent {
  behavior: string;
  topics: Topic[];
}

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

export interface ConversationTurn {
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
  [more: string]: unknown;
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
