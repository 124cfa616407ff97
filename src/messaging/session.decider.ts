import type { Decider } from '../commands/decider';
import { DomainError } from '../platform/errors/domain-error';
import type { EndReason, HandoffFailure, SessionEvent, SessionEventData } from './session.events';

/**
 * - `open`: no conversation runs (before the join request, or after one ended: a handoff that
 *   failed or timed out, a live agent who left). A join request starts a new one.
 * - `agent`: the service agent answers.
 * - `queued`: handed off, waiting for a desk agent.
 * - `live`: a desk agent chats.
 */
type Phase = 'open' | 'agent' | 'queued' | 'live' | 'ended';

export interface SessionState {
  exists: boolean;
  sessionId: string;
  connectorId: string;
  accountId: string;
  agentId: string;
  environment: string;
  streamingEnabled: boolean;
  phase: Phase;
  /** the conversation the service agent runs (or last ran) on this session */
  conversationId: string | null;
  deploymentId: string | null;
  handoff: { handoffId: string; destination: string; reason: string; queuedAt: string } | null;
  liveAgent: { id: string; name: string } | null;
  lastEventAt: string;
  endReason: EndReason | null;
}

interface Reply {
  messageId: string;
  text: string;
  responseSuggestions: string[];
}

/** What the service agent's turn led to, beyond its answer. */
export type TurnOutcome =
  | { kind: 'continue' }
  | { kind: 'ended' }
  | { kind: 'handoff'; handoffId: string; destination: string; reason: string; failure: HandoffFailure | null };

export type SessionCommand =
  | { type: 'StartSession'; started: SessionEventData<'MessagingSessionStarted'> }
  | {
      type: 'JoinServiceAgent';
      conversationId: string;
      deploymentId: string;
      agentName: string;
      greeting: Reply | null;
      now: string;
    }
  | {
      type: 'RecordAgentTurn';
      conversationId: string;
      user: { messageId: string; text: string; custom?: unknown };
      reply: Reply;
      outcome: TurnOutcome;
      now: string;
    }
  /** The service agent's answer to an external event (a delayed response), pushed to the session. */
  | { type: 'PushDelayedAgentMessage'; conversationId: string; reply: Reply; outcome: TurnOutcome; now: string }
  | { type: 'RecordUserMessage'; user: { messageId: string; text: string; custom?: unknown }; now: string }
  | { type: 'AcceptHandoff'; liveAgentId: string; agentName: string; now: string }
  | { type: 'SendLiveAgentMessage'; liveAgentId: string; messageId: string; text: string; now: string }
  | { type: 'LeaveAsLiveAgent'; liveAgentId: string; now: string }
  | { type: 'TimeOutHandoff'; handoffId: string; now: string }
  | { type: 'EndSession'; reason: EndReason; now: string }
  | { type: 'ExpireIfIdle'; idleMs: number; now: string };

/** The handoff failure messages of interface.md's table. */
const HANDOFF_FAILURE_MESSAGES: Record<HandoffFailure, string> = {
  no_desk: 'could not connect you to an agent',
  invalid: 'handoff could not be initiated',
};

const sessionErrors = {
  notFound: () => new DomainError('SESSION_NOT_FOUND', 'session not found', 404),
  notJoined: () => new DomainError('CONVERSATION_NOT_STARTED', 'conversation ID not found in session', 409),
  noConversation: () => new DomainError('CONVERSATION_NOT_ACTIVE', 'the session has no active conversation', 409),
  notQueued: () => new DomainError('HANDOFF_NOT_QUEUED', 'this session is not waiting for a live agent', 409),
  notYours: () => new DomainError('NOT_THE_LIVE_AGENT', 'another live agent holds this session', 409),
};

const initialState = (): SessionState => ({
  exists: false,
  sessionId: '',
  connectorId: '',
  accountId: '',
  agentId: '',
  environment: '',
  streamingEnabled: false,
  phase: 'open',
  conversationId: null,
  deploymentId: null,
  handoff: null,
  liveAgent: null,
  lastEventAt: '',
  endReason: null,
});

function evolve(state: SessionState, event: SessionEvent): SessionState {
  const s = { ...state, lastEventAt: event.data.at };
  switch (event.type) {
    case 'MessagingSessionStarted': {
      const d = event.data;
      return {
        ...s,
        exists: true,
        sessionId: d.sessionId,
        connectorId: d.connectorId,
        accountId: d.accountId,
        agentId: d.agentId,
        environment: d.environment,
        streamingEnabled: d.streamingEnabled,
      };
    }
    case 'MessagingServiceAgentJoined':
      return {
        ...s,
        phase: 'agent',
        conversationId: event.data.conversationId,
        deploymentId: event.data.deploymentId,
        handoff: null,
        liveAgent: null,
      };
    case 'MessagingHandoffTriggered':
      return {
        ...s,
        phase: 'queued',
        handoff: {
          handoffId: event.data.handoffId,
          destination: event.data.destination,
          reason: event.data.reason,
          queuedAt: event.data.at,
        },
      };
    case 'MessagingHandoffFailed':
    case 'MessagingHandoffTimedOut':
      return { ...s, phase: 'open', handoff: null };
    case 'MessagingHandoffAccepted':
      return { ...s, phase: 'live', liveAgent: { id: event.data.liveAgentId, name: event.data.agentName } };
    case 'MessagingLiveAgentLeft':
      return { ...s, phase: 'open', handoff: null, liveAgent: null };
    case 'MessagingSessionEnded':
      return { ...s, phase: 'ended', endReason: event.data.reason };
    default:
      return s;
  }
}

function liveSession(state: SessionState): void {
  if (!state.exists || state.phase === 'ended') throw sessionErrors.notFound();
}

function decide(command: SessionCommand, state: SessionState): SessionEvent[] {
  if (command.type === 'StartSession') {
    if (state.exists) return [];
    return [{ type: 'MessagingSessionStarted', data: command.started }];
  }
  if (command.type === 'PushDelayedAgentMessage') {
    // Only to the conversation the user is still in with the service agent: after the session
    // ended, a handoff or a new join, the answer stays on the conversation's record alone.
    if (!state.exists || state.phase !== 'agent' || state.conversationId !== command.conversationId) return [];
    return [
      agentMessage(command.reply, command.now, command.conversationId),
      ...outcomeEvents(command.outcome, command.now),
    ];
  }
  liveSession(state);
  const at = command.now;
  switch (command.type) {
    case 'JoinServiceAgent': {
      // A repeated join request while a conversation runs changes nothing.
      if (state.phase !== 'open') return [];
      const { conversationId, deploymentId, agentName, greeting } = command;
      return [
        { type: 'MessagingServiceAgentJoined', data: { conversationId, deploymentId, agentName, at } },
        ...(greeting ? [agentMessage(greeting, at, conversationId)] : []),
      ];
    }
    case 'RecordAgentTurn': {
      if (state.phase !== 'agent' || state.conversationId !== command.conversationId)
        throw state.conversationId === null ? sessionErrors.notJoined() : sessionErrors.noConversation();
      return [
        userMessage(command.user, at, command.conversationId),
        agentMessage(command.reply, at, command.conversationId),
        ...outcomeEvents(command.outcome, at),
      ];
    }
    case 'RecordUserMessage':
      // Only while a human is (about to be) in the loop; the service agent's turns record the message themselves.
      if (state.phase !== 'queued' && state.phase !== 'live')
        throw state.conversationId === null ? sessionErrors.notJoined() : sessionErrors.noConversation();
      return [userMessage(command.user, at, state.conversationId)];
    case 'AcceptHandoff': {
      if (state.phase !== 'queued' || !state.handoff) throw sessionErrors.notQueued();
      const { liveAgentId, agentName } = command;
      const handoffId = state.handoff.handoffId;
      return [
        { type: 'MessagingHandoffAccepted', data: { handoffId, liveAgentId, agentName, at } },
        { type: 'MessagingLiveAgentJoined', data: { handoffId, liveAgentId, agentName, at } },
      ];
    }
    case 'SendLiveAgentMessage':
      if (state.phase !== 'live' || state.liveAgent?.id !== command.liveAgentId) throw sessionErrors.notYours();
      return [
        {
          type: 'MessagingLiveAgentMessageSent',
          data: {
            messageId: command.messageId,
            liveAgentId: command.liveAgentId,
            agentName: state.liveAgent.name,
            text: command.text,
            ...conversationOf(state.conversationId),
            at,
          },
        },
      ];
    case 'LeaveAsLiveAgent':
      if (state.phase !== 'live' || state.liveAgent?.id !== command.liveAgentId) return [];
      return [
        {
          type: 'MessagingLiveAgentLeft',
          data: { liveAgentId: command.liveAgentId, agentName: state.liveAgent.name, at },
        },
      ];
    case 'TimeOutHandoff':
      if (state.phase !== 'queued' || state.handoff?.handoffId !== command.handoffId) return [];
      return [{ type: 'MessagingHandoffTimedOut', data: { handoffId: command.handoffId, at } }];
    case 'EndSession':
      return [{ type: 'MessagingSessionEnded', data: { reason: command.reason, at } }];
    case 'ExpireIfIdle':
      if (Date.parse(command.now) - Date.parse(state.lastEventAt) < command.idleMs) return [];
      return [{ type: 'MessagingSessionEnded', data: { reason: 'REASON_USER_ABANDONED', at } }];
  }
}

/** What a service agent turn led to, beyond its answer: the session's end, or a handoff (and its failure). */
function outcomeEvents(outcome: TurnOutcome, at: string): SessionEvent[] {
  if (outcome.kind === 'ended') return [{ type: 'MessagingSessionEnded', data: { reason: 'REASON_NATURAL_END', at } }];
  if (outcome.kind !== 'handoff') return [];
  const { handoffId, destination, reason, failure } = outcome;
  const events: SessionEvent[] = [{ type: 'MessagingHandoffTriggered', data: { handoffId, destination, reason, at } }];
  if (failure) {
    const message = HANDOFF_FAILURE_MESSAGES[failure];
    events.push({ type: 'MessagingHandoffFailed', data: { handoffId, failure, message, at } });
    events.push({ type: 'MessagingSystemMessageRecorded', data: { level: 'SYSTEM_MESSAGE_LEVEL_ERROR', message, at } });
  }
  return events;
}

/** The conversation a message was said in, which seals its text (session.events.ts); none before a join. */
const conversationOf = (conversationId: string | null) => (conversationId ? { conversationId } : {});

function userMessage(
  user: { messageId: string; text: string; custom?: unknown },
  at: string,
  conversationId: string | null,
): SessionEvent {
  return {
    type: 'MessagingUserMessageReceived',
    data: {
      messageId: user.messageId,
      text: user.text,
      ...(user.custom !== undefined ? { custom: user.custom } : {}),
      ...conversationOf(conversationId),
      at,
    },
  };
}

function agentMessage(reply: Reply, at: string, conversationId: string): SessionEvent {
  return {
    type: 'MessagingServiceAgentMessageSent',
    data: {
      messageId: reply.messageId,
      text: reply.text,
      responseSuggestions: reply.responseSuggestions,
      conversationId,
      at,
    },
  };
}

/** Whether the session outlived its idle time at `nowMs`: expired sessions are not found. */
export function isExpired(state: SessionState, nowMs: number, idleMs: number): boolean {
  return state.exists && state.phase !== 'ended' && nowMs - Date.parse(state.lastEventAt) >= idleMs;
}

export const sessionDecider: Decider<SessionState, SessionCommand, SessionEvent> = { initialState, evolve, decide };
