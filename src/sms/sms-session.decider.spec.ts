import {
  deliveredTo,
  IDLE_WARNING_MS,
  idleDueAt,
  smsSessionDecider as d,
  WARNING_REPLY_MS,
  warningDueAt,
  type SmsRoute,
  type SmsSessionCommand,
  type SmsSessionEvent,
  type SmsSessionState,
} from './sms-session.decider';

const T0 = Date.parse('2026-01-01T00:00:00.000Z');
const at = (ms: number) => new Date(T0 + ms).toISOString();
const route: SmsRoute = {
  accountId: 'a',
  agentId: 'g',
  connectorId: 'con_1',
  numberEnvironment: 'dev',
  environment: 'sandbox',
  deploymentId: 'dep-1',
};
const run = (commands: SmsSessionCommand[]) =>
  commands.reduce<{ state: SmsSessionState; events: SmsSessionEvent[] }>(
    ({ state }, command) => {
      const events = d.decide(command, state);
      return { state: events.reduce(d.evolve, state), events };
    },
    { state: d.initialState(), events: [] },
  );
const outbound = (ms = 0, conversationId = 'SMS-1'): SmsSessionCommand => ({
  type: 'OpenOutbound',
  conversationId,
  agentNumber: '+1',
  userNumber: '+2',
  text: 'Hi from us',
  route,
  now: at(ms),
});
const inbound = (ms: number, id = 'SMS-2', deploymentId: string | null = 'dep-1'): SmsSessionCommand => ({
  type: 'ReceiveInbound',
  newConversationId: id,
  agentNumber: '+1',
  userNumber: '+2',
  text: 'hello',
  providerMessageId: `p${ms}`,
  route: { ...route, deploymentId },
  now: at(ms),
});
const idleFired = (state: SmsSessionState, ms: number): SmsSessionCommand => ({
  type: 'IdleTimerFired',
  generation: state.generation,
  warningText: 'Still there?',
  now: at(ms),
});
const warningFired = (state: SmsSessionState, ms: number): SmsSessionCommand => ({
  type: 'WarningTimerFired',
  generation: state.generation,
  now: at(ms),
});

describe('SMS session decider (interface.md "SMS session")', () => {
  it('none + outbound: a session opens with the sent message as its greeting; no idle timer until the user replies', () => {
    const { state, events } = run([outbound()]);
    expect(events).toEqual([
      {
        type: 'SmsSessionOpened',
        data: {
          conversationId: 'SMS-1',
          agentNumber: '+1',
          userNumber: '+2',
          by: 'outbound',
          route,
          greeting: 'Hi from us',
          openedAt: at(0),
        },
      },
    ]);
    expect(state).toMatchObject({ status: 'active', conversationId: 'SMS-1', engaged: false });
    // not engaged: an idle timer of this generation does nothing
    expect(d.decide(idleFired(state, IDLE_WARNING_MS), state)).toEqual([]);
  });

  it('none + inbound: opens a session; active + inbound: the same session, engaged', () => {
    const opened = run([inbound(0)]);
    expect(opened.events.map((e) => e.type)).toEqual(['SmsSessionOpened', 'SmsUserMessageReceived']);
    expect(opened.state).toMatchObject({ status: 'active', conversationId: 'SMS-2', engaged: true, route });
    const joined = run([outbound(), inbound(1000)]);
    expect(joined.events.map((e) => e.type)).toEqual(['SmsUserMessageReceived']);
    expect(joined.state).toMatchObject({ conversationId: 'SMS-1', engaged: true });
  });

  it('opening needs an active deployment; joining does not (the session keeps the one it started on)', () => {
    expect(() => d.decide(inbound(0, 'SMS-2', null), d.initialState())).toThrow(
      expect.objectContaining({ code: 'NO_ACTIVE_DEPLOYMENT', status: 404 }),
    );
    const { state } = run([outbound()]);
    expect(d.decide(inbound(1000, 'SMS-2', null), state).map((e) => e.type)).toEqual(['SmsUserMessageReceived']);
  });

  it('a redelivered provider message adds nothing', () => {
    const { state } = run([inbound(5)]);
    expect(d.decide(inbound(5, 'SMS-9'), state)).toEqual([]);
    expect(deliveredTo(state, 'p5')).toBe('SMS-2');
  });

  it('engaged and 24 h idle: the warning; a reply within 10 min keeps the session', () => {
    const engaged = run([outbound(), inbound(1000)]).state;
    expect(idleDueAt(engaged.lastActivityAt)).toBe(at(1000 + IDLE_WARNING_MS));
    const warned = run([outbound(), inbound(1000), idleFired(engaged, 1000 + IDLE_WARNING_MS)]);
    expect(warned.events).toEqual([
      {
        type: 'SmsIdleWarningSent',
        data: {
          conversationId: 'SMS-1',
          text: 'Still there?',
          sentAt: at(1000 + IDLE_WARNING_MS),
          generation: engaged.generation + 1,
        },
      },
    ]);
    expect(warned.state.status).toBe('warning');
    expect(warningDueAt(warned.state.lastActivityAt)).toBe(at(1000 + IDLE_WARNING_MS + WARNING_REPLY_MS));
    const kept = run([
      outbound(),
      inbound(1000),
      idleFired(engaged, 1000 + IDLE_WARNING_MS),
      inbound(1000 + IDLE_WARNING_MS + 60_000),
    ]);
    expect(kept.events.map((e) => e.type)).toEqual(['SmsUserMessageReceived']);
    expect(kept.state).toMatchObject({ status: 'active', conversationId: 'SMS-1' });
    // the warning timer of before the reply is stale now
    expect(d.decide(warningFired(warned.state, 1000 + IDLE_WARNING_MS + WARNING_REPLY_MS), kept.state)).toEqual([]);
  });

  it('silence after the warning ends the session; the next inbound message opens a new one', () => {
    const engaged = run([outbound(), inbound(1000)]).state;
    const warned = run([outbound(), inbound(1000), idleFired(engaged, 1000 + IDLE_WARNING_MS)]).state;
    const endAt = 1000 + IDLE_WARNING_MS + WARNING_REPLY_MS;
    const ended = run([
      outbound(),
      inbound(1000),
      idleFired(engaged, 1000 + IDLE_WARNING_MS),
      warningFired(warned, endAt),
    ]);
    expect(ended.events).toEqual([
      { type: 'SmsSessionEnded', data: { conversationId: 'SMS-1', endedAt: at(endAt), reason: 'idle' } },
    ]);
    const next = d.decide(inbound(endAt + 1000, 'SMS-3'), ended.state);
    expect(next.map((e) => e.type)).toEqual(['SmsSessionOpened', 'SmsUserMessageReceived']);
    expect(next[1].data).toMatchObject({ conversationId: 'SMS-3' });
  });

  it('a reply after the 10 minutes whose timer has not run yet opens a new session all the same', () => {
    const engaged = run([outbound(), inbound(1000)]).state;
    const late = run([
      outbound(),
      inbound(1000),
      idleFired(engaged, 1000 + IDLE_WARNING_MS),
      inbound(1000 + IDLE_WARNING_MS + WARNING_REPLY_MS, 'SMS-4'),
    ]);
    expect(late.events.map((e) => e.type)).toEqual(['SmsSessionEnded', 'SmsSessionOpened', 'SmsUserMessageReceived']);
    expect(late.events[0].data).toMatchObject({ conversationId: 'SMS-1', reason: 'idle' });
    expect(late.state.conversationId).toBe('SMS-4');
  });

  it('an idle timer of an older generation decides nothing (activity moved it)', () => {
    const first = run([outbound(), inbound(1000)]).state;
    const later = run([outbound(), inbound(1000), inbound(5000)]).state;
    expect(d.decide(idleFired(first, 1000 + IDLE_WARNING_MS), later)).toEqual([]);
    expect(d.decide(idleFired(later, 5000 + IDLE_WARNING_MS), later).map((e) => e.type)).toEqual([
      'SmsIdleWarningSent',
    ]);
  });

  it('each outbound request opens a new session; the open one ends as replaced', () => {
    const { state, events } = run([outbound(), outbound(10, 'SMS-9')]);
    expect(events.map((e) => e.type)).toEqual(['SmsSessionEnded', 'SmsSessionOpened']);
    expect(events[0].data).toMatchObject({ conversationId: 'SMS-1', reason: 'replaced' });
    expect(state.conversationId).toBe('SMS-9');
  });

  it('the conversation ending on its own ends its session, and only its own', () => {
    const { state } = run([outbound()]);
    expect(d.decide({ type: 'EndSession', conversationId: 'SMS-other', now: at(5) }, state)).toEqual([]);
    expect(d.decide({ type: 'EndSession', conversationId: 'SMS-1', now: at(5) }, state)).toEqual([
      { type: 'SmsSessionEnded', data: { conversationId: 'SMS-1', endedAt: at(5), reason: 'agent' } },
    ]);
  });
});
