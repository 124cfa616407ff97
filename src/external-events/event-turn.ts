import type { Topic } from '../agents/agent.events';
import type { TurnEffects } from '../conversations/conversation.decider';
import type { TurnData } from '../conversations/conversation.events';
import { parseActions } from '../runtime/actions/parse-actions';
import { runActions } from '../runtime/actions/run-actions';
import { renderValue } from '../runtime/actions/templating';

/** The prefix of the topic that answers an event: `event:payment` answers `await_external_event name=payment`. */
const EVENT_TOPIC_PREFIX = 'event:';

/** Without an `event:<name>` topic the agent still tells the user the result is in. */
const defaultEventResponse = (name: string) =>
  `Thanks for waiting: the ${name.replace(/[_-]+/g, ' ')} result has arrived.`;

export interface EventTurnInput {
  name: string;
  topics: readonly Topic[];
  /** the conversation's state with the event already under `external_events.<name>` */
  state: Record<string, unknown>;
  receivedAt: string;
  language: string;
  newId: () => string;
}

/**
 * The agent's turn for an arrived external event, purely. The active topic named
 * `event:<name>` (any case) answers: its content, with `$state.…` placeholders filled (so it can
 * quote the payload), and its actions run as for a cited topic (they may set state, log metrics,
 * hand off, end the conversation or await another event). Without one, a default acknowledgement.
 */
export function eventTurn(input: EventTurnInput): { turn: Omit<TurnData, 'turnIndex'>; effects: TurnEffects } {
  const t0 = performance.now();
  const wanted = `${EVENT_TOPIC_PREFIX}${input.name}`.toLowerCase();
  const topic = input.topics.find((t) => t.isActive && t.name.trim().toLowerCase() === wanted);
  const parsed = topic?.actions ? parseActions(topic.actions) : null;
  const outcome = parsed?.actions.length
    ? runActions(parsed.actions, { state: input.state, newId: input.newId })
    : null;
  const invalid = (parsed?.errors ?? []).map((e) => ({
    name: 'invalid_action',
    args: { line: String(e.line) },
    status: 'error' as const,
    error: e.message,
  }));
  const after = outcome?.state ?? input.state;
  const agentResponse = topic ? renderValue(topic.content, after) : defaultEventResponse(input.name);
  const actionsS = Math.round((performance.now() - t0) * 1000) / 1e6;
  const node = topic ? `topic:${topic.name}` : 'external-event';
  const turn: Omit<TurnData, 'turnIndex'> = {
    userInput: '',
    userInputAt: input.receivedAt,
    agentResponse,
    agentResponseAt: input.receivedAt,
    bargeIn: false,
    isSilence: false,
    isOod: false,
    intents: [],
    entities: {},
    retrievedTopics: topic ? [topic.name] : [],
    retrievedSources: topic ? [topic.id] : [],
    citedTopic: topic?.name ?? '',
    currentNode: node,
    nodeTrace: ['external-event', node, ...(outcome ? ['actions'] : [])],
    functionEvents: [...invalid, ...(outcome?.functionEvents ?? [])],
    functionErrors: invalid.length + (outcome?.functionErrors ?? 0),
    llmRequests: [],
    apiErrors: 0,
    latency: { total_s: actionsS, stages: { retrieval: 0, generation: 0, actions: actionsS } },
    asrLangCode: input.language,
    ttsLangCode: input.language,
    inputMetadata: { external_event: input.name },
    delayedResponse: true,
  };
  const effects: TurnEffects = outcome
    ? {
        stateChanges: outcome.stateChanges,
        metrics: outcome.metrics,
        awaited: outcome.awaitedEvents,
        handoff: outcome.handoff ? { ...outcome.handoff, sharedId: outcome.handoff.sharedId ?? '' } : null,
        ended: outcome.ended,
      }
    : { stateChanges: {}, metrics: [], awaited: [], handoff: null, ended: false };
  return { turn, effects };
}
