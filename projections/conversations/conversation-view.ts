import {
  ERASED_TEXT,
  type ConversationAnalysedData,
  type ConversationEvent,
  type Latency,
  type TurnData,
} from '../../src/conversations/conversation.events';

/**
 * What the Conversations and Handoff APIs know about a conversation, folded from its stream.
 * One evolve, two uses: the conversations projection stores it, and `as_of` replays a stream's
 * first events through the very same function.
 */
export interface ConversationSummary {
  id: string;
  accountId: string;
  agentId: string;
  environment: string;
  channel: string;
  fromNumber: string;
  toNumber: string;
  variantId: string;
  variantName: string;
  language: string;
  startedAt: string;
  /** the last turn or the end, whichever came last */
  lastActivityAt: string;
  endedAt: string | null;
  endReason: string | null;
  numTurns: number;
  numSilences: number;
  numOod: number;
  /** when the agent handed off (its part ended then); null without handoff */
  handoffAt: string | null;
  handoffReason: string;
  handoffDestination: string;
  sharedId: string;
  handoffData: Record<string, unknown>;
  state: Record<string, unknown>;
  metrics: Array<{ name: string; value: string }>;
  /** post-call analysis, once the conversation ended and was analysed (contract §24); absent in summaries stored before it */
  analysis?: ConversationAnalysedData | null;
}

/** One turn as the Conversations API reads it. */
export interface TurnView {
  turnIndex: number;
  userInput: string;
  userInputAt: string;
  agentResponse: string;
  agentResponseAt: string;
  bargeIn: boolean;
  /** voice calls: the keypad digits the input was */
  dtmf?: string;
  /** voice calls: the answer was cut short (barge-in, hang-up) */
  interrupted?: boolean;
  isOod: boolean;
  isSilence: boolean;
  intents: string[];
  entities: Record<string, string>;
  latency: Latency;
  /** the debug chat metadata of the turn (interface.md "Debug chat turn") */
  metadata: Record<string, unknown>;
}

/** Folds one event of a conversation stream; null until the conversation has started. */
export function evolveSummary(
  summary: ConversationSummary | null,
  event: ConversationEvent,
): ConversationSummary | null {
  if (event.type === 'ConversationStarted') {
    const d = event.data;
    return {
      id: d.conversationId,
      accountId: d.accountId,
      agentId: d.agentId,
      environment: d.environment,
      channel: d.channel,
      fromNumber: d.fromNumber,
      toNumber: d.toNumber,
      variantId: d.variantId,
      variantName: d.variantName,
      language: d.language,
      startedAt: d.startedAt,
      lastActivityAt: d.startedAt,
      endedAt: null,
      endReason: null,
      numTurns: 0,
      numSilences: 0,
      numOod: 0,
      handoffAt: null,
      handoffReason: '',
      handoffDestination: '',
      sharedId: '',
      handoffData: {},
      state: {},
      metrics: [],
      analysis: null,
    };
  }
  if (!summary) return null;
  switch (event.type) {
    case 'TurnRecorded': {
      const t = event.data;
      return {
        ...summary,
        numTurns: Math.max(summary.numTurns, t.turnIndex + 1),
        numSilences: summary.numSilences + (t.isSilence ? 1 : 0),
        numOod: summary.numOod + (t.isOod ? 1 : 0),
        lastActivityAt: later(summary.lastActivityAt, t.agentResponseAt),
      };
    }
    case 'StateChanged':
      return { ...summary, state: { ...summary.state, ...event.data.changes } };
    case 'MetricLogged':
      return { ...summary, metrics: [...summary.metrics, { name: event.data.name, value: event.data.value }] };
    case 'ExternalEventAwaited':
    case 'ExternalEventReceived':
    case 'DelayedResponseDelivered':
    case 'ToolCalled':
      return summary;
    case 'HandoffRequested':
      return {
        ...summary,
        handoffAt: summary.lastActivityAt,
        handoffReason: event.data.reason,
        handoffDestination: event.data.destination,
        sharedId: event.data.sharedId,
        handoffData: event.data.data,
      };
    case 'ConversationEnded':
      return {
        ...summary,
        endedAt: event.data.endedAt,
        endReason: event.data.reason,
        lastActivityAt: later(summary.lastActivityAt, event.data.endedAt),
      };
    case 'ConversationErased':
      // what the summary kept of the sealed fields (contract §24): the events themselves now read erased
      return {
        ...summary,
        fromNumber: summary.fromNumber && ERASED_TEXT,
        toNumber: summary.toNumber && ERASED_TEXT,
        state: {},
        handoffData: {},
        analysis: summary.analysis && {
          ...summary.analysis,
          summary: summary.analysis.summary && ERASED_TEXT,
          fields: {},
        },
      };
    case 'ConversationAnalysed':
      return { ...summary, analysis: event.data };
  }
}

export function turnView(t: TurnData): TurnView {
  return {
    turnIndex: t.turnIndex,
    userInput: t.userInput,
    userInputAt: t.userInputAt,
    agentResponse: t.agentResponse,
    agentResponseAt: t.agentResponseAt,
    bargeIn: t.bargeIn,
    ...(t.dtmf ? { dtmf: t.dtmf } : {}),
    ...(t.interrupted ? { interrupted: true } : {}),
    isOod: t.isOod,
    isSilence: t.isSilence,
    intents: t.intents,
    entities: t.entities,
    latency: t.latency,
    metadata: {
      currentNode: t.currentNode,
      nodeTrace: t.nodeTrace,
      functionEvents: t.functionEvents,
      retrievedTopics: t.retrievedTopics,
      retrievedSources: t.retrievedSources,
      citedTopic: t.citedTopic,
      inFlow: '',
      inStep: '',
      llmRequests: t.llmRequests,
      asrLangCode: t.asrLangCode,
      ttsLangCode: t.ttsLangCode,
      delayedResponse: t.delayedResponse,
      ...(t.retrieval ? { retrieval: t.retrieval } : {}),
    },
  };
}

/** A whole conversation from (a prefix of) its stream: the `as_of` view. */
export function replayConversation(
  events: Iterable<ConversationEvent>,
): { summary: ConversationSummary; turns: TurnView[] } | null {
  let summary: ConversationSummary | null = null;
  const turns: TurnView[] = [];
  for (const event of events) {
    summary = evolveSummary(summary, event);
    if (summary && event.type === 'TurnRecorded') turns.push(turnView(event.data));
  }
  return summary ? { summary, turns } : null;
}

/** Seconds from start to the end (or to the last activity while in progress). */
export function totalDurationS(s: ConversationSummary): number {
  return seconds(s.startedAt, s.endedAt ?? s.lastActivityAt);
}

/** The part the platform handled: up to the handoff when there was one. */
export function platformDurationS(s: ConversationSummary): number {
  return seconds(s.startedAt, s.handoffAt ?? s.endedAt ?? s.lastActivityAt);
}

function seconds(from: string, to: string): number {
  return Math.max(0, Math.round((Date.parse(to) - Date.parse(from)) / 10) / 100);
}

function later(a: string, b: string): string {
  return b > a ? b : a;
}
