import type { Decider } from '../commands/decider';
import { conflict, DomainError } from '../platform/errors/domain-error';
import type { RedactKind } from '../privacy/redact-kinds';
import { redactEvents } from './conversation-redaction';
import type {
  ConversationAnalysedData,
  ConversationEvent,
  EndReason,
  ExternalEventReceivedData,
  ToolCallData,
  TurnData,
} from './conversation.events';
import { turnRecorded } from './conversation.events';
import { ConversationEndedError, ConversationNotFoundError } from './conversation-errors';

export interface ConversationState {
  exists: boolean;
  conversationId: string;
  accountId: string;
  agentId: string;
  deploymentId: string;
  environment: string;
  channel: string;
  language: string;
  startedAt: string;
  lastActivityAt: string;
  turns: number;
  state: Readonly<Record<string, unknown>>;
  metrics: ReadonlyArray<{ name: string; value: string }>;
  awaiting: Readonly<Record<string, string>>;
  handoff: { destination: string; reason: string } | null;
  ended: EndReason | null;
  /** external event ids already bound: a repeated delivery changes nothing */
  received: Readonly<Record<string, true>>;
  /** agent turns made for external events that no debug chat request has returned yet */
  pendingDelayed: ReadonlyArray<TurnData>;
  /** its personal data was erased (contract §24) */
  erased: boolean;
  /** the personal data this conversation's events are recorded without (its deployment's `privacy.redact`) */
  redact: ReadonlyArray<RedactKind>;
  /** post-call analysis was recorded: it is recorded once */
  analysed: boolean;
}

type Started = Extract<ConversationEvent, { type: 'ConversationStarted' }>['data'];

/** What the runtime decided for one input, beyond the turn itself. */
export interface TurnEffects {
  stateChanges: Record<string, unknown>;
  metrics: Array<{ name: string; value: string }>;
  awaited: Array<{ name: string; eventId: string }>;
  handoff: { destination: string; reason: string; sharedId: string; data: Record<string, unknown> } | null;
  ended: boolean;
  /** agent tool calls of the turn, recorded as ToolCalled events (contract §20); absent: none */
  toolCalls?: ToolCallData[];
}

export type ConversationCommand =
  | {
      type: 'StartConversation';
      started: Started;
      initialState: Record<string, unknown>;
      greeting: Omit<TurnData, 'turnIndex'>;
    }
  | { type: 'RecordTurn'; turn: Omit<TurnData, 'turnIndex'>; effects: TurnEffects }
  | { type: 'EndConversation'; reason: EndReason; now: string }
  /**
   * Binds an awaited external event. `payload` is its state form, stored under
   * `external_events.<name>`; `response` is the agent's turn for it (ignored once the conversation ended).
   */
  | {
      type: 'ReceiveExternalEvent';
      event: Omit<ExternalEventReceivedData, 'agentTurn'>;
      payload: unknown;
      response: { turn: Omit<TurnData, 'turnIndex'>; effects: TurnEffects } | null;
    }
  | { type: 'AcknowledgeDelayedResponse'; turnIndex: number; now: string }
  /** Records an erasure of its personal data once (the key store has destroyed its key). */
  | { type: 'EraseConversation'; now: string; by: string }
  /** Post-call analysis (contract §24): once per conversation, after its end. */
  | { type: 'RecordAnalysis'; analysis: ConversationAnalysedData }
  /**
   * A call that never connected (busy, no answer, refused at the door): recorded as a conversation
   * that started and ended without an agent turn, so the id its call answer handed out reads like any other.
   */
  | {
      type: 'RecordNotConnected';
      started: Started;
      initialState: Record<string, unknown>;
      endedAt: string;
    }
  /** A conversation the user opens with a message (inbound SMS): its first turn is the answer to it, not a greeting. */
  | {
      type: 'StartConversationWithTurn';
      started: Started;
      initialState: Record<string, unknown>;
      turn: Omit<TurnData, 'turnIndex'>;
      effects: TurnEffects;
    };

const initialState = (): ConversationState => ({
  exists: false,
  conversationId: '',
  accountId: '',
  agentId: '',
  deploymentId: '',
  environment: '',
  channel: '',
  language: '',
  startedAt: '',
  lastActivityAt: '',
  turns: 0,
  state: {},
  metrics: [],
  awaiting: {},
  handoff: null,
  ended: null,
  received: {},
  pendingDelayed: [],
  erased: false,
  redact: [],
  analysed: false,
});

function evolve(s: ConversationState, event: ConversationEvent): ConversationState {
  switch (event.type) {
    case 'ConversationStarted': {
      const d = event.data;
      return {
        ...s,
        exists: true,
        conversationId: d.conversationId,
        accountId: d.accountId,
        agentId: d.agentId,
        deploymentId: d.deploymentId,
        environment: d.environment,
        channel: d.channel,
        language: d.language,
        startedAt: d.startedAt,
        lastActivityAt: d.startedAt,
        redact: d.redact ?? [],
      };
    }
    case 'TurnRecorded': {
      const next = { ...s, turns: event.data.turnIndex + 1, lastActivityAt: event.data.agentResponseAt };
      return event.data.delayedResponse ? { ...next, pendingDelayed: [...s.pendingDelayed, event.data] } : next;
    }
    case 'StateChanged':
      return { ...s, state: { ...s.state, ...event.data.changes } };
    case 'MetricLogged':
      return { ...s, metrics: [...s.metrics, event.data] };
    case 'ExternalEventAwaited':
      return { ...s, awaiting: { ...s.awaiting, [event.data.eventId]: event.data.name } };
    case 'HandoffRequested':
      return { ...s, handoff: { destination: event.data.destination, reason: event.data.reason } };
    case 'ConversationEnded':
      return { ...s, ended: event.data.reason, lastActivityAt: event.data.endedAt };
    case 'ExternalEventReceived':
      return { ...s, received: { ...s.received, [event.data.eventId]: true } };
    case 'DelayedResponseDelivered':
      return { ...s, pendingDelayed: s.pendingDelayed.filter((t) => t.turnIndex !== event.data.turnIndex) };
    case 'ConversationErased':
      return { ...s, erased: true };
    case 'ConversationAnalysed':
      return { ...s, analysed: true };
    default:
      return s;
  }
}

/**
 * A call to a reserved DNI number carries the reservation's attributes in state under `dni`; their
 * `shared_id` is the handoff's when the agent names none (contract §18), so the page that reserved
 * the number finds the handoff by it.
 */
function withDniSharedId(handoff: TurnEffects['handoff'], state: Readonly<Record<string, unknown>>) {
  if (!handoff || handoff.sharedId !== '') return handoff;
  const dni = state.dni;
  const sharedId = dni !== null && typeof dni === 'object' ? (dni as Record<string, unknown>).shared_id : undefined;
  if (typeof sharedId !== 'string' || sharedId === '') return handoff;
  return { ...handoff, sharedId, data: { ...handoff.data, shared_id: sharedId } };
}

function effectsEvents(
  effects: TurnEffects,
  at: string,
  state: Readonly<Record<string, unknown>> = {},
): ConversationEvent[] {
  const events: ConversationEvent[] = [];
  const handoff = withDniSharedId(effects.handoff, { ...state, ...effects.stateChanges });
  for (const call of effects.toolCalls ?? []) events.push({ type: 'ToolCalled', data: call });
  if (Object.keys(effects.stateChanges).length > 0)
    events.push({ type: 'StateChanged', data: { changes: effects.stateChanges } });
  for (const metric of effects.metrics) events.push({ type: 'MetricLogged', data: metric });
  for (const awaited of effects.awaited) events.push({ type: 'ExternalEventAwaited', data: awaited });
  if (handoff) events.push({ type: 'HandoffRequested', data: handoff });
  // A handoff ends the agent's part of the conversation, like end_conversation.
  if (effects.handoff || effects.ended)
    events.push({ type: 'ConversationEnded', data: { reason: effects.handoff ? 'handoff' : 'agent', endedAt: at } });
  return events;
}

/**
 * The events a command leads to, with the personal data the deployment names redacted from them
 * (contract §24): here, where every event of a conversation stream is made, so no channel and no
 * path can append it in clear. The runtime had the clear text for the turn; the log never does.
 * A conversation without `privacy.redact` pays one length check.
 */
function decide(command: ConversationCommand, s: ConversationState): ConversationEvent[] {
  const events = decideEvents(command, s);
  const kinds = 'started' in command ? (command.started.redact ?? []) : s.redact;
  return kinds.length === 0 ? events : redactEvents(events, kinds);
}

function decideEvents(command: ConversationCommand, s: ConversationState): ConversationEvent[] {
  switch (command.type) {
    case 'StartConversation':
      if (s.exists) throw conflict('CONVERSATION_EXISTS', 'conversation already exists');
      return [
        { type: 'ConversationStarted', data: command.started },
        ...(Object.keys(command.initialState).length
          ? [{ type: 'StateChanged' as const, data: { changes: command.initialState } }]
          : []),
        turnRecorded({ ...command.greeting, turnIndex: 0 }),
      ];
    case 'StartConversationWithTurn':
      if (s.exists) throw conflict('CONVERSATION_EXISTS', 'conversation already exists');
      return [
        { type: 'ConversationStarted', data: command.started },
        ...(Object.keys(command.initialState).length
          ? [{ type: 'StateChanged' as const, data: { changes: command.initialState } }]
          : []),
        turnRecorded({ ...command.turn, turnIndex: 0 }),
        ...effectsEvents(command.effects, command.turn.agentResponseAt, command.initialState),
      ];
    case 'RecordNotConnected':
      if (s.exists) throw conflict('CONVERSATION_EXISTS', 'conversation already exists');
      return [
        { type: 'ConversationStarted', data: command.started },
        ...(Object.keys(command.initialState).length
          ? [{ type: 'StateChanged' as const, data: { changes: command.initialState } }]
          : []),
        { type: 'ConversationEnded', data: { reason: 'not_connected', endedAt: command.endedAt } },
      ];
    case 'RecordTurn':
      if (!s.exists) throw new ConversationNotFoundError();
      if (s.ended) throw new ConversationEndedError();
      return [
        turnRecorded({ ...command.turn, turnIndex: s.turns }),
        ...effectsEvents(command.effects, command.turn.agentResponseAt, s.state),
      ];
    case 'EndConversation':
      if (!s.exists) throw new ConversationNotFoundError();
      if (s.ended) return [];
      return [{ type: 'ConversationEnded', data: { reason: command.reason, endedAt: command.now } }];
    case 'ReceiveExternalEvent':
      return receiveExternalEvent(command, s);
    case 'AcknowledgeDelayedResponse':
      if (!s.pendingDelayed.some((t) => t.turnIndex === command.turnIndex)) return [];
      return [{ type: 'DelayedResponseDelivered', data: { turnIndex: command.turnIndex, deliveredAt: command.now } }];
    case 'EraseConversation':
      if (!s.exists) throw new ConversationNotFoundError();
      if (s.erased) return [];
      return [{ type: 'ConversationErased', data: { erasedAt: command.now, erasedBy: command.by } }];
    case 'RecordAnalysis':
      if (!s.exists) throw new ConversationNotFoundError();
      if (s.ended === null) throw conflict('CONVERSATION_IN_PROGRESS', 'a conversation is analysed once it has ended');
      if (s.analysed) return [];
      return [{ type: 'ConversationAnalysed', data: command.analysis }];
  }
}

/** Exactly once per event id; after the end it is recorded (and kept in state) without an agent turn. */
function receiveExternalEvent(
  command: Extract<ConversationCommand, { type: 'ReceiveExternalEvent' }>,
  s: ConversationState,
): ConversationEvent[] {
  const { event } = command;
  if (!s.exists) throw new ConversationNotFoundError();
  if (s.received[event.eventId]) return [];
  if (s.awaiting[event.eventId] === undefined)
    throw new DomainError('EXTERNAL_EVENT_UNKNOWN', 'this conversation awaits no such external event', 400);
  const agentTurn = s.ended === null && command.response !== null;
  const before = s.state.external_events;
  const received = {
    ...(before !== null && typeof before === 'object' && !Array.isArray(before) ? before : {}),
    [event.name]: command.payload,
  };
  const events: ConversationEvent[] = [
    { type: 'ExternalEventReceived', data: { ...event, agentTurn } },
    { type: 'StateChanged', data: { changes: { external_events: received } } },
  ];
  if (!agentTurn) return events;
  const { turn, effects } = command.response!;
  return [
    ...events,
    turnRecorded({ ...turn, delayedResponse: true, turnIndex: s.turns }),
    ...effectsEvents(effects, turn.agentResponseAt, s.state),
  ];
}

export const conversationDecider: Decider<ConversationState, ConversationCommand, ConversationEvent> = {
  initialState,
  evolve,
  decide,
};
