import { conversationDecider as d, type ConversationCommand, type TurnEffects } from './conversation.decider';
import type { ConversationEvent, TurnData } from './conversation.events';

const AT = '2026-01-01T00:00:00.000Z';
const started: Extract<ConversationEvent, { type: 'ConversationStarted' }>['data'] = {
  conversationId: 'AS_CHAT_1',
  accountId: 'acc',
  agentId: 'ag',
  deploymentId: 'dep',
  version: 1,
  environment: 'sandbox',
  channel: 'CHAT',
  fromNumber: '',
  toNumber: '',
  variantId: '',
  variantName: '',
  language: 'en-GB',
  startedAt: AT,
};
const turn = (userInput: string): Omit<TurnData, 'turnIndex'> => ({
  userInput,
  userInputAt: AT,
  agentResponse: 'ok',
  agentResponseAt: AT,
  bargeIn: false,
  isSilence: false,
  isOod: false,
  intents: [],
  entities: {},
  retrievedTopics: [],
  retrievedSources: [],
  citedTopic: '',
  currentNode: '',
  nodeTrace: [],
  functionEvents: [],
  functionErrors: 0,
  llmRequests: [],
  apiErrors: 0,
  latency: { total_s: 0, stages: {} },
  asrLangCode: 'en-GB',
  ttsLangCode: 'en-GB',
  inputMetadata: {},
  delayedResponse: false,
});
const none: TurnEffects = { stateChanges: {}, metrics: [], awaited: [], handoff: null, ended: false };
const fold = (events: ConversationEvent[]) => events.reduce(d.evolve, d.initialState());
const when = (history: ConversationEvent[], command: ConversationCommand) => d.decide(command, fold(history));
const start = when([], { type: 'StartConversation', started, initialState: { channel: 'CHAT' }, greeting: turn('') });

describe('conversation decider', () => {
  it('starts with its state and the greeting as turn 0', () => {
    expect(start.map((e) => e.type)).toEqual(['ConversationStarted', 'StateChanged', 'TurnRecorded']);
    expect(start[2].data).toMatchObject({ turnIndex: 0, userInput: '' });
    expect(() => when(start, { type: 'StartConversation', started, initialState: {}, greeting: turn('') })).toThrow(
      expect.objectContaining({ status: 409 }),
    );
  });

  it('numbers turns and records their effects after them, in order', () => {
    const effects: TurnEffects = {
      stateChanges: { tier: 'gold' },
      metrics: [{ name: 'CSAT', value: '5' }],
      awaited: [{ name: 'payment', eventId: 'ev1' }],
      handoff: null,
      ended: false,
    };
    const events = when(start, { type: 'RecordTurn', turn: turn('hi'), effects });
    expect(events.map((e) => e.type)).toEqual(['TurnRecorded', 'StateChanged', 'MetricLogged', 'ExternalEventAwaited']);
    expect(events[0].data).toMatchObject({ turnIndex: 1 });
    const state = fold([...start, ...events]);
    expect(state).toMatchObject({
      turns: 2,
      state: { channel: 'CHAT', tier: 'gold' },
      awaiting: { ev1: 'payment' },
      ended: null,
    });
  });

  it("a handoff, like end_conversation, ends the agent's part; nothing is recorded after the end", () => {
    const handoff = { destination: 'queue', reason: 'asked', sharedId: 's1', data: { reason: 'asked' } };
    const events = when(start, { type: 'RecordTurn', turn: turn('human'), effects: { ...none, handoff } });
    expect(events.map((e) => e.type)).toEqual(['TurnRecorded', 'HandoffRequested', 'ConversationEnded']);
    expect(events[2].data).toMatchObject({ reason: 'handoff' });
    expect(() => when([...start, ...events], { type: 'RecordTurn', turn: turn('again'), effects: none })).toThrow(
      expect.objectContaining({ code: 'CHAT_CONVERSATION_ENDED', status: 410 }),
    );
    expect(when([...start, ...events], { type: 'EndConversation', reason: 'user', now: AT })).toEqual([]);
    const ended = when(start, { type: 'RecordTurn', turn: turn('bye'), effects: { ...none, ended: true } });
    expect(ended.at(-1)).toEqual({ type: 'ConversationEnded', data: { reason: 'agent', endedAt: AT } });
  });

  it('refuses turns for a conversation that does not exist', () => {
    expect(() => when([], { type: 'RecordTurn', turn: turn('hi'), effects: none })).toThrow(
      expect.objectContaining({ code: 'CONVERSATIONS_NOT_FOUND', status: 404 }),
    );
  });

  it("a handoff without shared_id takes the DNI reservation's attributes.shared_id (contract §18)", () => {
    const history = when([], {
      type: 'StartConversation',
      started,
      initialState: { dni: { shared_id: 'visit-42', page: '/pricing' } },
      greeting: turn(''),
    });
    const handoff = { destination: 'desk', reason: 'asked', sharedId: '', data: { reason: 'asked' } };
    const events = when(history, { type: 'RecordTurn', turn: turn('a human please'), effects: { ...none, handoff } });
    expect(events.find((e) => e.type === 'HandoffRequested')?.data).toEqual({
      destination: 'desk',
      reason: 'asked',
      sharedId: 'visit-42',
      data: { reason: 'asked', shared_id: 'visit-42' },
    });
    // the agent's own shared_id wins
    const own = when(history, {
      type: 'RecordTurn',
      turn: turn('a human please'),
      effects: { ...none, handoff: { ...handoff, sharedId: 'mine' } },
    });
    expect(own.find((e) => e.type === 'HandoffRequested')?.data).toMatchObject({ sharedId: 'mine' });
  });

  it('a call that never connected starts and ends at once, without a turn, its outcome in state', () => {
    const call = { ...started, conversationId: 'OUT-1', channel: 'VOICE-SIP' as const };
    const outcome = { call_status: 'failure', failure_reason: 'busy' };
    const events = when([], { type: 'RecordNotConnected', started: call, initialState: outcome, endedAt: AT });
    expect(events.map((e) => e.type)).toEqual(['ConversationStarted', 'StateChanged', 'ConversationEnded']);
    expect(events[2].data).toEqual({ reason: 'not_connected', endedAt: AT });
    const s = fold(events);
    expect(s).toMatchObject({ exists: true, turns: 0, ended: 'not_connected', state: outcome });
    // a replay finds it there; nothing can be said on it afterwards
    expect(() =>
      when(events, { type: 'RecordNotConnected', started: call, initialState: outcome, endedAt: AT }),
    ).toThrow(expect.objectContaining({ code: 'CONVERSATION_EXISTS' }));
    expect(() => when(events, { type: 'RecordTurn', turn: turn('hello?'), effects: none })).toThrow(
      expect.objectContaining({ status: 410 }),
    );
    expect(() => when(start, { type: 'RecordNotConnected', started, initialState: {}, endedAt: AT })).toThrow(
      expect.objectContaining({ status: 409 }),
    );
  });

  it('records post-call analysis once, and only after the end', () => {
    const analysis = {
      outcome: 'contained' as const,
      topics: ['Refunds'],
      summary: 'The user asked: refund?',
      fields: { resolved: null },
      analyser: 'embedded' as const,
    };
    const record: ConversationCommand = { type: 'RecordAnalysis', analysis };
    expect(() => when([], record)).toThrow(expect.objectContaining({ status: 404 }));
    expect(() => when(start, record)).toThrow(expect.objectContaining({ code: 'CONVERSATION_IN_PROGRESS' }));
    const ended = [...start, ...when(start, { type: 'EndConversation', reason: 'user', now: AT })];
    const analysed = when(ended, record);
    expect(analysed).toEqual([{ type: 'ConversationAnalysed', data: analysis }]);
    // a repeat (a process manager after a crash) records nothing
    expect(when([...ended, ...analysed], record)).toEqual([]);
    expect(fold([...ended, ...analysed]).analysed).toBe(true);
  });
});

describe('conversation decider: privacy.redact (contract §24)', () => {
  const EMAIL = 'jane.doe@example.com';
  const PHONE = '+44 20 7946 0958';
  const CARD = '4111 1111 1111 1111';
  const IBAN = 'GB82 WEST 1234 5698 7654 32';
  const SSN = '123-45-6789';
  const CLEAR = [EMAIL, PHONE, CARD, IBAN, SSN];
  const privateStart = when([], {
    type: 'StartConversationWithTurn',
    started: { ...started, redact: ['email', 'phone', 'card', 'iban', 'ssn'] },
    initialState: { caller_number: PHONE, agent_number: '+15550100', note: `from ${PHONE}` },
    turn: { ...turn(`I am ${EMAIL}`), agentResponse: `We will call ${PHONE}` },
    effects: { ...none, stateChanges: { email: EMAIL } },
  });
  const everything: TurnEffects = {
    stateChanges: { payment: { card: CARD, iban: `IBAN ${IBAN}` }, list: [SSN], count: 3 },
    metrics: [{ name: 'contact', value: EMAIL }],
    awaited: [{ name: 'payment', eventId: 'ev1' }],
    handoff: { destination: 'queue', reason: `call back on ${PHONE}`, sharedId: 's1', data: { email: EMAIL } },
    ended: false,
  };
  const privateTurn: Omit<TurnData, 'turnIndex'> = {
    ...turn(`my card is ${CARD} and ssn ${SSN}`),
    agentResponse: `Thanks, I have ${IBAN}`,
    entities: { email: EMAIL },
    inputMetadata: { contact: { phone: PHONE }, tags: [EMAIL] },
    functionEvents: [{ name: 'lookup', args: { card: CARD }, status: 'error', error: `no card ${CARD}` }],
  };

  it('records no personal data of the kinds named, in any event, from the start on', () => {
    const events = [
      ...privateStart,
      ...when(privateStart, { type: 'RecordTurn', turn: privateTurn, effects: everything }),
    ];
    // the caller's number that addresses the conversation aside (the next test)
    const recorded = JSON.stringify(events).replace(`"caller_number":"${PHONE}"`, '');
    for (const clear of CLEAR) expect(recorded).not.toContain(clear);
    const turnData = events.filter((e) => e.type === 'TurnRecorded').map((e) => e.data as TurnData);
    expect(turnData[0]).toMatchObject({ userInput: 'I am [EMAIL]', agentResponse: 'We will call [PHONE]' });
    expect(turnData[1]).toMatchObject({
      userInput: 'my card is [CARD] and ssn [SSN]',
      agentResponse: 'Thanks, I have [IBAN]',
      entities: { email: '[EMAIL]' },
      inputMetadata: { contact: { phone: '[PHONE]' }, tags: ['[EMAIL]'] },
      functionEvents: [{ name: 'lookup', args: { card: '[CARD]' }, status: 'error', error: 'no card [CARD]' }],
    });
    const state = fold(events);
    expect(state.state).toMatchObject({
      note: 'from [PHONE]',
      email: '[EMAIL]',
      payment: { card: '[CARD]', iban: 'IBAN [IBAN]' },
      list: ['[SSN]'],
      count: 3,
    });
    expect(state.metrics).toEqual([{ name: 'contact', value: '[EMAIL]' }]);
    const handoff = events.find((e) => e.type === 'HandoffRequested')!.data;
    expect(handoff).toMatchObject({ reason: 'call back on [PHONE]', data: { email: '[EMAIL]' }, sharedId: 's1' });
  });

  it('keeps the numbers that address the conversation, which the channel reads back to answer', () => {
    const state = fold(privateStart);
    expect(state.state).toMatchObject({ caller_number: PHONE, agent_number: '+15550100' });
    expect(state.redact).toEqual(['email', 'phone', 'card', 'iban', 'ssn']);
  });

  it("redacts an external event's body as bytes, and the payload it puts in state", () => {
    const awaiting = [
      ...privateStart,
      ...when(privateStart, {
        type: 'RecordTurn',
        turn: turn('pay'),
        effects: { ...none, awaited: [{ name: 'paid', eventId: 'ev1' }] },
      }),
    ];
    const body = Buffer.concat([Buffer.from([0xff, 0x00]), Buffer.from(`{"email":"${EMAIL}","note":"café"}`)]);
    const events = when(awaiting, {
      type: 'ReceiveExternalEvent',
      event: {
        eventId: 'ev1',
        name: 'paid',
        contentType: 'application/json',
        body: body.toString('base64'),
        receivedAt: AT,
      },
      payload: { email: EMAIL },
      response: { turn: turn(''), effects: none },
    });
    const received = events.find((e) => e.type === 'ExternalEventReceived')!.data as { body: string };
    const bytes = Buffer.from(received.body, 'base64');
    expect(bytes.subarray(0, 2)).toEqual(Buffer.from([0xff, 0x00]));
    expect(bytes.subarray(2).toString('utf8')).toBe('{"email":"[EMAIL]","note":"café"}');
    expect(fold([...awaiting, ...events]).state.external_events).toEqual({ paid: { email: '[EMAIL]' } });
  });

  it('redacts only the kinds named, and leaves a conversation without privacy.redact as it was', () => {
    const onlyEmail = when([], {
      type: 'StartConversationWithTurn',
      started: { ...started, redact: ['email'] },
      initialState: {},
      turn: turn(`${EMAIL} ${PHONE}`),
      effects: none,
    });
    expect(onlyEmail.find((e) => e.type === 'TurnRecorded')!.data).toMatchObject({ userInput: `[EMAIL] ${PHONE}` });
    const clear = when(start, { type: 'RecordTurn', turn: privateTurn, effects: everything });
    expect(JSON.stringify(clear)).toContain(CARD);
    expect(fold(start).redact).toEqual([]);
    // the start of a conversation without it carries no redact field at all
    expect(Object.keys(start[0].data)).not.toContain('redact');
  });
});
