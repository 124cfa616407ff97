import type { ServedContent } from '../../agents/deployment-content';
import type { Answers, TurnResult } from './answers';
import type { ConversationCommand, TurnEffects } from '../conversation.decider';
import type { ConversationEvent, RecordedChannel, TurnData } from '../conversation.events';

type Started = Extract<ConversationEvent, { type: 'ConversationStarted' }>['data'];

/** How a conversation begins on a channel: everything but the deployment's content. */
export interface Opening {
  conversationId: string;
  channel: RecordedChannel;
  environment: string;
  startedAt: string;
  /** the party the agent talks to and the agent's own number, in state ('' where the channel has none) */
  callerNumber?: string;
  agentNumber?: string;
  /** the numbers as the conversation's record shows them (a call's from and to) */
  fromNumber?: string;
  toNumber?: string;
  variant?: { id: string; name: string };
  /** the channel's own metadata for state (a call's metadata); the built-in keys always win */
  attributes?: Record<string, unknown>;
}

/** What a conversation's record names of the deployment it ran on. */
export type DeploymentIdentity = Pick<
  ServedContent,
  'accountId' | 'agentId' | 'deploymentId' | 'version' | 'languageCode' | 'settings'
>;

/** The state a conversation starts with, the same keys on every channel. */
export function initialStateOf(opening: Opening, content: DeploymentIdentity): Record<string, unknown> {
  return {
    ...opening.attributes,
    conversation_id: opening.conversationId,
    channel: opening.channel,
    environment: opening.environment,
    caller_number: opening.callerNumber ?? '',
    agent_number: opening.agentNumber ?? '',
    language: content.languageCode,
  };
}

function startedOf(opening: Opening, content: DeploymentIdentity): Started {
  const redact = content.settings?.privacy?.redact;
  return {
    conversationId: opening.conversationId,
    accountId: content.accountId,
    agentId: content.agentId,
    deploymentId: content.deploymentId,
    version: content.version,
    environment: opening.environment,
    channel: opening.channel,
    fromNumber: opening.fromNumber ?? '',
    toNumber: opening.toNumber ?? '',
    variantId: opening.variant?.id ?? '',
    variantName: opening.variant?.name ?? '',
    language: content.languageCode,
    startedAt: opening.startedAt,
    // only when on: the start of a conversation without it is recorded as it always was
    ...(redact?.length ? { redact } : {}),
  };
}

/** An agent turn with no user message before it: a greeting, or a text the channel sends (an SMS idle warning). */
export interface AgentLine {
  text: string;
  /** the node the turn is recorded at */
  node: string;
}

/**
 * The command that starts a conversation with the agent's greeting (or the channel's own first
 * line), purely: the seed decides it at simulated times, the engine appends it.
 */
export function startCommand(
  runtime: Answers,
  content: ServedContent,
  opening: Opening,
  newId: () => string,
  line?: AgentLine,
): { command: Extract<ConversationCommand, { type: 'StartConversation' }>; greeting: TurnResult } {
  const initialState = initialStateOf(opening, content);
  const greeted = greetingOf(runtime, content, initialState, opening.startedAt, newId);
  const greeting = line ? { ...greeted, turn: saying(greeted.turn, line) } : greeted;
  return {
    command: { type: 'StartConversation', started: startedOf(opening, content), initialState, greeting: greeting.turn },
    greeting,
  };
}

/**
 * The command that records a call which never connected: the usual start and initial state plus
 * the call's outcome (`call_status`, `failure_reason`), ended at once and without a greeting,
 * since no one heard one. `deployment` has blank ids when none was active to answer.
 */
export function notConnectedCommand(
  deployment: DeploymentIdentity,
  opening: Opening,
  outcome: { callStatus: string; failureReason: string },
  endedAt: string,
): Extract<ConversationCommand, { type: 'RecordNotConnected' }> {
  return {
    type: 'RecordNotConnected',
    started: startedOf(opening, deployment),
    initialState: {
      ...initialStateOf(opening, deployment),
      call_status: outcome.callStatus,
      failure_reason: outcome.failureReason,
    },
    endedAt,
  };
}

/** The command of a conversation the user opens with a message (inbound SMS): its first turn answers it. */
export function startWithTurnCommand(
  content: ServedContent,
  opening: Opening,
  result: { turn: Omit<TurnData, 'turnIndex'>; effects: TurnEffects },
): Extract<ConversationCommand, { type: 'StartConversationWithTurn' }> {
  return {
    type: 'StartConversationWithTurn',
    started: startedOf(opening, content),
    initialState: initialStateOf(opening, content),
    turn: result.turn,
    effects: result.effects,
  };
}

function greetingOf(
  runtime: Answers,
  content: ServedContent,
  state: Readonly<Record<string, unknown>>,
  at: string,
  newId: () => string,
): TurnResult {
  return runtime.greet(content, {
    state,
    asrLangCode: content.languageCode,
    ttsLangCode: content.languageCode,
    receivedAt: at,
    newId,
  });
}

/** A line the channel says in the agent's name (an SMS idle warning), recorded like a greeting at its own node. */
export function agentLineTurn(
  runtime: Answers,
  content: ServedContent,
  state: Readonly<Record<string, unknown>>,
  at: string,
  newId: () => string,
  line: AgentLine,
): Omit<TurnData, 'turnIndex'> {
  return saying(greetingOf(runtime, content, state, at, newId).turn, line);
}

function saying(turn: Omit<TurnData, 'turnIndex'>, line: AgentLine): Omit<TurnData, 'turnIndex'> {
  return { ...turn, agentResponse: line.text, currentNode: line.node, nodeTrace: ['start', line.node] };
}

export const NO_EFFECTS: TurnEffects = { stateChanges: {}, metrics: [], awaited: [], handoff: null, ended: false };
