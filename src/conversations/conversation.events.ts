import type { DomainEvent } from '../commands/decider';
import type { RedactKind } from '../privacy/redact-kinds';

export type Channel = 'CHAT' | 'WEBCHAT' | 'VOICE-SIP' | 'SMS';
/** What a conversation's record may name: a channel, or `TEST`, an agent test run's conversation (contract §19) that no API lists. */
export type RecordedChannel = Channel | 'TEST';
/** `not_connected`: a call that failed before anyone answered (busy, no answer, refused): no agent turn was made. */
export type EndReason = 'user' | 'agent' | 'handoff' | 'timeout' | 'crash' | 'not_connected';

interface FunctionEvent {
  name: string;
  args: Record<string, string>;
  status: 'ok' | 'error';
  error?: string;
}

export interface LlmRequest {
  model: string;
  promptTokens: number | null;
  completionTokens: number | null;
  latencyMs: number;
  status: 'ok' | 'error' | 'timeout';
  error?: string;
}

export interface Latency {
  total_s: number;
  stages: Record<string, number>;
}

/** One exchange: what the user said (empty for the greeting) and what the agent answered. */
export interface TurnData {
  turnIndex: number;
  userInput: string;
  userInputAt: string;
  agentResponse: string;
  agentResponseAt: string;
  bargeIn: boolean;
  isSilence: boolean;
  isOod: boolean;
  intents: string[];
  entities: Record<string, string>;
  retrievedTopics: string[];
  retrievedSources: string[];
  citedTopic: string;
  currentNode: string;
  nodeTrace: string[];
  functionEvents: FunctionEvent[];
  functionErrors: number;
  llmRequests: LlmRequest[];
  /** failed calls the agent made this turn (model errors and timeouts): an alert metric */
  apiErrors: number;
  latency: Latency;
  asrLangCode: string;
  ttsLangCode: string;
  /** the client's metadata for this input (debug chat `metadata`) */
  inputMetadata: Record<string, unknown>;
  /** the answer carries the result of an external event that arrived meanwhile */
  delayedResponse: boolean;
  /** voice calls: the keypad digits this turn's input was (RFC 4733), absent for speech and text */
  dtmf?: string;
  /** voice calls: the answer was not played to its end (the caller barged in or hung up); absent otherwise */
  interrupted?: boolean;
  /** how the topics were retrieved, for agents set to hybrid retrieval (docs/retrieval.md); absent otherwise */
  retrieval?: TurnRetrieval;
}

/** Why a hybrid turn answered lexically (docs/retrieval.md, "Fallbacks"). */
export type RetrievalFallback =
  | 'timeout'
  | 'http_error'
  | 'malformed'
  | 'unreachable'
  | 'dimension_mismatch'
  | 'model_mismatch'
  | 'vectors_pending'
  | 'endpoint_missing'
  /** draft chat (contract §26): vectors are made for deployments, never for a branch being edited */
  | 'draft';

/** `hybrid`: the lexical and vector rankings were fused; `lexical` with a reason: the turn fell back. */
export interface TurnRetrieval {
  mode: 'hybrid' | 'lexical';
  fallback_reason?: RetrievalFallback;
}

export type ConversationEvent =
  | DomainEvent<
      'ConversationStarted',
      {
        conversationId: string;
        accountId: string;
        agentId: string;
        deploymentId: string;
        version: number;
        environment: string;
        channel: RecordedChannel;
        fromNumber: string;
        toNumber: string;
        variantId: string;
        variantName: string;
        language: string;
        startedAt: string;
        /** the deployment's `privacy.redact` (contract §24): what every later event of the conversation is recorded without; absent: none */
        redact?: RedactKind[];
      }
    >
  | DomainEvent<'TurnRecorded', TurnData>
  | DomainEvent<'StateChanged', { changes: Record<string, unknown> }>
  | DomainEvent<'MetricLogged', { name: string; value: string }>
  | DomainEvent<'ExternalEventAwaited', { name: string; eventId: string }>
  | DomainEvent<
      'HandoffRequested',
      { destination: string; reason: string; sharedId: string; data: Record<string, unknown> }
    >
  | DomainEvent<'ConversationEnded', { reason: EndReason; endedAt: string }>
  /** An awaited external event's payload bound to the conversation (src/external-events). `body`: the bytes as delivered, base64. */
  | DomainEvent<'ExternalEventReceived', ExternalEventReceivedData>
  /** A delayed response (an agent turn made for an external event) was handed to the debug chat client. */
  | DomainEvent<'DelayedResponseDelivered', { turnIndex: number; deliveredAt: string }>
  /** An agent tool was called during the turn recorded next to it (contract §20). */
  | DomainEvent<'ToolCalled', ToolCallData>
  /**
   * The conversation's personal data was erased (contract §24): its key is destroyed, so every
   * sealed field of its events reads `[erased]` from now on. `erasedBy`: the key or operator.
   */
  | DomainEvent<'ConversationErased', { erasedAt: string; erasedBy: string }>
  /** Post-call analysis of an ended conversation (contract §24), appended once behind the log (src/analysis). */
  | DomainEvent<'ConversationAnalysed', ConversationAnalysedData>;

/** A custom analysis field's value: its declared type, or null when the analyser could not tell. */
export type AnalysisValue = string | number | boolean | null;

/** What post-call analysis found (contract §24). */
export interface ConversationAnalysedData {
  /** outcomeOf's rule (below), the one analytics counts by */
  outcome: Outcome;
  /** the topics the agent's answers cited, each once, in the order first cited */
  topics: string[];
  summary: string;
  /** every field of the agent's `analysis` setting, by name */
  fields: Record<string, AnalysisValue>;
  /** `model`: a model endpoint wrote the summary and fields; `embedded`: the extractive analyser did */
  analyser: 'embedded' | 'model';
}

/**
 * One agent tool call, as the audit keeps it: which tool, a digest of the request body (never the
 * arguments or the headers themselves), the outcome and how long it took.
 */
export interface ToolCallData {
  tool: string;
  toolId: string;
  /** hex SHA-256 of the JSON body sent (empty when no request was made: breaker open, refused arguments) */
  requestDigest: string;
  status: 'ok' | 'error';
  /** the endpoint's HTTP status, null when no answer came */
  httpStatus: number | null;
  /** the error class: `http_<status>`, `timeout`, `connect_failed`, `tls_failed`, `address_refused`, `invalid_json`, `breaker_open`, ... */
  error?: string;
  latencyMs: number;
  calledAt: string;
}

export interface ExternalEventReceivedData {
  eventId: string;
  name: string;
  contentType: string;
  body: string;
  receivedAt: string;
  /** false when the conversation had ended: recorded, no agent turn */
  agentTurn: boolean;
}

/**
 * TurnRecorded's schema version. Version 1 turns recorded before the LLM adapter have no
 * `apiErrors`; `conversation.upcasters.ts` lifts them on read, so readers see version 2 only.
 */
const TURN_RECORDED_VERSION = 2;

/** A TurnRecorded event in the current schema: the one way a decider records a turn. */
export const turnRecorded = (data: TurnData): ConversationEvent => ({
  type: 'TurnRecorded',
  schemaVersion: TURN_RECORDED_VERSION,
  data,
});

export const conversationStream = (conversationId: string) => `conversation-${conversationId}`;

/** Agent test runs' conversations (contract §19) have ids `TEST-<uuid>`. */
export const TEST_CONVERSATION_PREFIX = 'TEST-';
const TEST_CONVERSATION_STREAM = conversationStream(TEST_CONVERSATION_PREFIX);

/**
 * A test run's conversation is recorded like any other (its audit trail is the run's evidence),
 * but no read model of conversations, no alert metric and no webhook takes it in.
 */
export const isTestConversationStream = (streamId: string) => streamId.startsWith(TEST_CONVERSATION_STREAM);

/** How a conversation went, as analytics (contract §23) and post-call analysis (§24) both name it. */
export type Outcome = 'contained' | 'handoff' | 'abandoned' | 'not_connected';
export const OUTCOMES: readonly Outcome[] = ['contained', 'handoff', 'abandoned', 'not_connected'];

/**
 * A turn the user took part in: they typed, spoke or keyed something. The greeting, an SMS idle
 * warning and a reprompt after silence are the agent's alone.
 */
export function isUserTurn(turn: Pick<TurnData, 'userInput' | 'isSilence' | 'dtmf'>): boolean {
  return !turn.isSilence && (turn.userInput.trim() !== '' || Boolean(turn.dtmf));
}

/**
 * One outcome for every ended conversation, first rule that holds: a call nobody answered is
 * `not_connected`; one handed to a person is `handoff`; one where the user got at least one answer
 * is `contained`; else the user left before the agent's first answer, `abandoned`.
 */
export function outcomeOf(ended: { reason: EndReason; handedOff: boolean; userTurns: number }): Outcome {
  if (ended.reason === 'not_connected') return 'not_connected';
  if (ended.handedOff || ended.reason === 'handoff') return 'handoff';
  return ended.userTurns > 0 ? 'contained' : 'abandoned';
}

/** What a conversation's personal text reads as once it was erased (contract §24). */
export const ERASED_TEXT = '[erased]';
