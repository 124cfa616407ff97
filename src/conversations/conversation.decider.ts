import type { Decider } from '../platform/commands/decider';
import { conflict, DomainError } from '../platform/errors/domain-error';
import type { ConversationEvent, EndReason, TurnData } from './conversation.events';

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
}

type Started = Extract<ConversationEvent, { type: 'ConversationStarted' }>['data'];

/** What the runtime decided for one input, beyond the turn itself. */
export interface TurnEffects {
  stateChanges: Record<string, unknown>;
  metrics: Array<{ name: string; value: string }>;
  awaited: Array<{ name: string; eventId: string }>;
  handoff: { destination: string; reason: string; sharedId: string; data: Record<string, unknown> } | null;
  ended: boolean;
}

export type ConversationCommand =
  | { type: 'StartConversation'; started: Started; initialState: Record<string, unknown>; greeting: Omit<TurnData, 'turnIndex'> }
  | { type: 'RecordTurn'; turn: Omit<TurnData, 'turnIndex'>; effects: TurnEffects }
  | { type: 'EndConversation'; reason: EndReason; now: string };

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
});

function evolve(s: ConversationState, event: ConversationEvent): ConversationState {
  switch (event.type) {
    case 'ConversationStarted': {
      const d = event.data;
      return { ...s, exists: true, conversationId: d.conversationId, accountId: d.accountId, agentId: d.agentId, deploymentId: d.deploymentId, environment: d.environment, channel: d.channel, language: d.language, startedAt: d.startedAt, lastActivityAt: d.startedAt };
    }
    case 'TurnRecorded':
      return { ...s, turns: event.data.turnIndex + 1, lastActivityAt: event.data.agentResponseAt };
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
  }
}

function effectsEvents(effects: TurnEffects, at: string): ConversationEvent[] {
  const events: ConversationEvent[] = [];
  if (Object.keys(effects.stateChanges).length > 0) events.push({ type: 'StateChanged', data: { changes: effects.stateChanges } });
  for (const metric of effects.metrics) events.push({ type: 'MetricLogged', data: metric });
  for (const awaited of effects.awaited) events.push({ type: 'ExternalEventAwaited', data: awaited });
  if (effects.handoff) events.push({ type: 'HandoffRequested', data: effects.handoff });
  // A handoff ends the agent's part of the conversation, like end_conversation.
  if (effects.handoff || effects.ended) events.push({ type: 'ConversationEnded', data: { reason: effects.handoff ? 'handoff' : 'agent', endedAt: at } });
  return events;
}

function decide(command: ConversationCommand, s: ConversationState): ConversationEvent[] {
  switch (command.type) {
    case 'StartConversation':
      if (s.exists) throw conflict('CONVERSATION_EXISTS', 'conversation already exists');
      return [
        { type: 'ConversationStarted', data: command.started },
        ...(Object.keys(command.initialState).length ? [{ type: 'StateChanged' as const, data: { changes: command.initialState } }] : []),
        { type: 'TurnRecorded', data: { ...command.greeting, turnIndex: 0 } },
      ];
    case 'RecordTurn':
      if (!s.exists) throw new DomainError('CONVERSATIONS_NOT_FOUND', 'conversation not found', 404);
      if (s.ended) throw new DomainError('CHAT_CONVERSATION_ENDED', 'this conversation has ended; start a new one', 410);
      return [{ type: 'TurnRecorded', data: { ...command.turn, turnIndex: s.turns } }, ...effectsEvents(command.effects, command.turn.agentResponseAt)];
    case 'EndConversation':
      if (!s.exists) throw new DomainError('CONVERSATIONS_NOT_FOUND', 'conversation not found', 404);
      if (s.ended) return [];
      return [{ type: 'ConversationEnded', data: { reason: command.reason, endedAt: command.now } }];
  }
}

export const conversationDecider: Decider<ConversationState, ConversationCommand, ConversationEvent> = { initialState, evolve, decide };
