import { DomainError } from '../platform/errors/domain-error';
import { isExpired, sessionDecider, type SessionCommand, type SessionState } from './session.decider';
import type { SessionEvent } from './session.events';

const T0 = '2026-03-01T10:00:00.000Z';
const at = (seconds: number) => new Date(Date.parse(T0) + seconds * 1000).toISOString();

const started: SessionEvent = {
  type: 'MessagingSessionStarted',
  data: {
    sessionId: 's1',
    connectorId: 'con_1',
    accountId: 'acc',
    agentId: 'ag',
    environment: 'sandbox',
    streamingEnabled: false,
    platform: '',
    capabilities: {},
    at: T0,
  },
};
const joined: SessionEvent = {
  type: 'MessagingServiceAgentJoined',
  data: { conversationId: 'WEBCHAT-1', deploymentId: 'd1', agentName: 'Bot', at: at(1) },
};
const queued: SessionEvent = {
  type: 'MessagingHandoffTriggered',
  data: { handoffId: 'h1', destination: 'support', reason: 'human', at: at(2) },
};
const accepted: SessionEvent = {
  type: 'MessagingHandoffAccepted',
  data: { handoffId: 'h1', liveAgentId: 'key_1', agentName: 'Dana', at: at(3) },
};

const fold = (events: SessionEvent[]): SessionState =>
  events.reduce(sessionDecider.evolve, sessionDecider.initialState());
const decide = (given: SessionEvent[], command: SessionCommand) => sessionDecider.decide(command, fold(given));
const refusal = (given: SessionEvent[], command: SessionCommand) => {
  try {
    decide(given, command);
  } catch (error) {
    return (error as DomainError).code;
  }
  throw new Error('expected a refusal');
};
const user = { messageId: 'm1', text: 'hello' };
const reply = { messageId: 'r1', text: 'Hi', responseSuggestions: [] };

describe('session decider', () => {
  it('starts once', () => {
    expect(decide([], { type: 'StartSession', started: started.data as never })).toEqual([started]);
    expect(decide([started], { type: 'StartSession', started: started.data as never })).toEqual([]);
  });

  it('a join starts the service agent with its greeting; a repeated join changes nothing', () => {
    const events = decide([started], {
      type: 'JoinServiceAgent',
      conversationId: 'WEBCHAT-1',
      deploymentId: 'd1',
      agentName: 'Bot',
      greeting: reply,
      now: at(1),
    });
    expect(events.map((e) => e.type)).toEqual(['MessagingServiceAgentJoined', 'MessagingServiceAgentMessageSent']);
    expect(fold([started, ...events]).phase).toBe('agent');
    expect(
      decide([started, joined], {
        type: 'JoinServiceAgent',
        conversationId: 'WEBCHAT-2',
        deploymentId: 'd1',
        agentName: 'Bot',
        greeting: null,
        now: at(2),
      }),
    ).toEqual([]);
  });

  it('every message names the conversation it was said in: its key seals the text (src/erasure)', () => {
    const [, greeting] = decide([started], {
      type: 'JoinServiceAgent',
      conversationId: 'WEBCHAT-1',
      deploymentId: 'd1',
      agentName: 'Bot',
      greeting: reply,
      now: at(1),
    });
    expect(greeting.data).toMatchObject({ conversationId: 'WEBCHAT-1' });
    const turn = decide([started, joined], {
      type: 'RecordAgentTurn',
      conversationId: 'WEBCHAT-1',
      user: { ...user, custom: { order: 1 } },
      reply,
      outcome: { kind: 'continue' },
      now: at(5),
    });
    expect(turn.map((e) => e.data)).toEqual([
      { messageId: 'm1', text: 'hello', custom: { order: 1 }, conversationId: 'WEBCHAT-1', at: at(5) },
      { messageId: 'r1', text: 'Hi', responseSuggestions: [], conversationId: 'WEBCHAT-1', at: at(5) },
    ]);
    // with a human: the conversation handed off
    const live = [started, joined, queued, accepted];
    const [toHuman] = decide(live, { type: 'RecordUserMessage', user, now: at(4) });
    expect(toHuman.data).toMatchObject({ conversationId: 'WEBCHAT-1' });
    const [fromHuman] = decide(live, {
      type: 'SendLiveAgentMessage',
      liveAgentId: 'key_1',
      messageId: 'l1',
      text: 'Hello',
      now: at(4),
    });
    expect(fromHuman.data).toMatchObject({ conversationId: 'WEBCHAT-1', text: 'Hello' });
  });

  it('an agent turn records the message and the answer, and what the turn led to', () => {
    const turn = (outcome: Extract<SessionCommand, { type: 'RecordAgentTurn' }>['outcome']) =>
      decide([started, joined], {
        type: 'RecordAgentTurn',
        conversationId: 'WEBCHAT-1',
        user,
        reply,
        outcome,
        now: at(5),
      }).map((e) => e.type);
    expect(turn({ kind: 'continue' })).toEqual(['MessagingUserMessageReceived', 'MessagingServiceAgentMessageSent']);
    expect(turn({ kind: 'ended' })).toEqual([
      'MessagingUserMessageReceived',
      'MessagingServiceAgentMessageSent',
      'MessagingSessionEnded',
    ]);
    expect(turn({ kind: 'handoff', handoffId: 'h', destination: 'support', reason: '', failure: null })).toEqual([
      'MessagingUserMessageReceived',
      'MessagingServiceAgentMessageSent',
      'MessagingHandoffTriggered',
    ]);
    expect(turn({ kind: 'handoff', handoffId: 'h', destination: 'support', reason: '', failure: 'no_desk' })).toEqual([
      'MessagingUserMessageReceived',
      'MessagingServiceAgentMessageSent',
      'MessagingHandoffTriggered',
      'MessagingHandoffFailed',
      'MessagingSystemMessageRecorded',
    ]);
  });

  it('a delayed response is pushed, with what it led to, only to the conversation the user is still in with the agent', () => {
    const push = (
      given: SessionEvent[],
      outcome: Extract<SessionCommand, { type: 'PushDelayedAgentMessage' }>['outcome'] = { kind: 'continue' },
      conversationId = 'WEBCHAT-1',
    ) => decide(given, { type: 'PushDelayedAgentMessage', conversationId, reply, outcome, now: at(9) });
    expect(push([started, joined])).toEqual([
      { type: 'MessagingServiceAgentMessageSent', data: { ...reply, conversationId: 'WEBCHAT-1', at: at(9) } },
    ]);
    expect(push([started, joined], { kind: 'ended' }).map((e) => e.type)).toEqual([
      'MessagingServiceAgentMessageSent',
      'MessagingSessionEnded',
    ]);
    expect(
      push([started, joined], {
        kind: 'handoff',
        handoffId: 'h',
        destination: 'support',
        reason: '',
        failure: 'no_desk',
      }).map((e) => e.type),
    ).toEqual([
      'MessagingServiceAgentMessageSent',
      'MessagingHandoffTriggered',
      'MessagingHandoffFailed',
      'MessagingSystemMessageRecorded',
    ]);
    // another conversation, a session handed off or ended, or none at all: nothing, and no refusal
    expect(push([started, joined], { kind: 'continue' }, 'WEBCHAT-2')).toEqual([]);
    expect(push([started, joined, queued])).toEqual([]);
    expect(
      push([started, joined, { type: 'MessagingSessionEnded', data: { reason: 'REASON_USER_END', at: at(4) } }]),
    ).toEqual([]);
    expect(push([])).toEqual([]);
  });

  it('a message before any join, or after the conversation ended, is refused with the code that names which', () => {
    const command: SessionCommand = {
      type: 'RecordAgentTurn',
      conversationId: 'WEBCHAT-1',
      user,
      reply,
      outcome: { kind: 'continue' },
      now: at(5),
    };
    expect(refusal([started], command)).toBe('CONVERSATION_NOT_STARTED');
    const failed: SessionEvent = {
      type: 'MessagingHandoffFailed',
      data: { handoffId: 'h1', failure: 'no_desk', message: 'x', at: at(3) },
    };
    expect(refusal([started, joined, queued, failed], command)).toBe('CONVERSATION_NOT_ACTIVE');
    expect(refusal([started], { type: 'RecordUserMessage', user, now: at(5) })).toBe('CONVERSATION_NOT_STARTED');
  });

  it('an ended session refuses everything as not found', () => {
    const ended: SessionEvent = { type: 'MessagingSessionEnded', data: { reason: 'REASON_USER_END', at: at(9) } };
    expect(refusal([started, ended], { type: 'EndSession', reason: 'REASON_USER_END', now: at(10) })).toBe(
      'SESSION_NOT_FOUND',
    );
    expect(refusal([], { type: 'EndSession', reason: 'REASON_USER_END', now: at(10) })).toBe('SESSION_NOT_FOUND');
  });

  it('the desk: accept once, only the holder speaks, leaving opens the session again', () => {
    expect(
      decide([started, joined, queued], {
        type: 'AcceptHandoff',
        liveAgentId: 'key_1',
        agentName: 'Dana',
        now: at(3),
      }).map((e) => e.type),
    ).toEqual(['MessagingHandoffAccepted', 'MessagingLiveAgentJoined']);
    expect(
      refusal([started, joined, queued, accepted], {
        type: 'AcceptHandoff',
        liveAgentId: 'key_2',
        agentName: 'Sam',
        now: at(4),
      }),
    ).toBe('HANDOFF_NOT_QUEUED');
    expect(
      refusal([started, joined, queued, accepted], {
        type: 'SendLiveAgentMessage',
        liveAgentId: 'key_2',
        messageId: 'x',
        text: 'hi',
        now: at(4),
      }),
    ).toBe('NOT_THE_LIVE_AGENT');
    expect(
      decide([started, joined, queued, accepted], { type: 'RecordUserMessage', user, now: at(4) }).map((e) => e.type),
    ).toEqual(['MessagingUserMessageReceived']);
    const left = decide([started, joined, queued, accepted], {
      type: 'LeaveAsLiveAgent',
      liveAgentId: 'key_1',
      now: at(5),
    });
    expect(left).toEqual([
      { type: 'MessagingLiveAgentLeft', data: { liveAgentId: 'key_1', agentName: 'Dana', at: at(5) } },
    ]);
    expect(fold([started, joined, queued, accepted, ...left])).toMatchObject({
      phase: 'open',
      liveAgent: null,
      conversationId: 'WEBCHAT-1',
    });
  });

  it('a handoff times out only while that handoff still waits', () => {
    expect(
      decide([started, joined, queued], { type: 'TimeOutHandoff', handoffId: 'h1', now: at(200) }).map((e) => e.type),
    ).toEqual(['MessagingHandoffTimedOut']);
    expect(decide([started, joined, queued], { type: 'TimeOutHandoff', handoffId: 'older', now: at(200) })).toEqual([]);
    expect(
      decide([started, joined, queued, accepted], { type: 'TimeOutHandoff', handoffId: 'h1', now: at(200) }),
    ).toEqual([]);
  });

  it('expires after the idle time since the last event, not before', () => {
    const state = fold([started, joined]);
    expect(isExpired(state, Date.parse(at(600)), 600_000)).toBe(false);
    expect(isExpired(state, Date.parse(at(601)), 600_000)).toBe(true);
    expect(decide([started, joined], { type: 'ExpireIfIdle', idleMs: 600_000, now: at(600) })).toEqual([]);
    expect(decide([started, joined], { type: 'ExpireIfIdle', idleMs: 600_000, now: at(601) })).toEqual([
      { type: 'MessagingSessionEnded', data: { reason: 'REASON_USER_ABANDONED', at: at(601) } },
    ]);
  });
});
