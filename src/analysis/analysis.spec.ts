import type { AnalysisField } from '../agents/analysis-settings';
import type { ConversationEvent, TurnData } from '../conversations/conversation.events';
import { foldFacts } from './conversation-facts';
import { embeddedAnalysis } from './embedded-analyser';
import { analysisOfAnswer, analysisSchema, fieldValue, ModelAnalysisFailed } from './model-analyser';

/* Post-call analysis (contract §24): the fold of a conversation, and both analysers' rules. */

const AT = '2026-01-01T00:00:00.000Z';
const started: ConversationEvent = {
  type: 'ConversationStarted',
  data: {
    conversationId: 'C1',
    accountId: 'a',
    agentId: 'g',
    deploymentId: 'd',
    version: 1,
    environment: 'live',
    channel: 'CHAT',
    fromNumber: '',
    toNumber: '',
    variantId: '',
    variantName: '',
    language: 'en-GB',
    startedAt: AT,
  },
};
const turn = (turnIndex: number, userInput: string, citedTopic = '', extra: Partial<TurnData> = {}) =>
  ({
    type: 'TurnRecorded',
    data: {
      turnIndex,
      userInput,
      userInputAt: AT,
      agentResponse: `answer ${turnIndex}`,
      agentResponseAt: AT,
      bargeIn: false,
      isSilence: false,
      isOod: false,
      intents: [],
      entities: {},
      retrievedTopics: [],
      retrievedSources: [],
      citedTopic,
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
      ...extra,
    },
  }) as ConversationEvent;
const ended = (reason: 'user' | 'handoff' | 'not_connected' = 'user'): ConversationEvent => ({
  type: 'ConversationEnded',
  data: { reason, endedAt: AT },
});
const FIELDS: AnalysisField[] = [
  { name: 'reason', type: 'string', description: 'Why they called' },
  { name: 'items', type: 'number', description: 'How many items' },
  { name: 'resolved', type: 'boolean', description: 'Solved?' },
  { name: 'mood', type: 'enum', description: 'Mood', values: ['happy', 'angry'] },
];

describe('the facts of a conversation', () => {
  it('counts user turns, keeps the first request and each cited topic once, in order', () => {
    const facts = foldFacts([
      started,
      turn(0, '', 'Greeting'),
      turn(1, '  can I get a refund? ', 'Refunds'),
      turn(2, '', '', { isSilence: true }),
      turn(3, 'and delivery?', 'Delivery'),
      turn(4, 'refund again', 'Refunds'),
      ended(),
    ]);
    expect(facts).toMatchObject({
      started: true,
      agentId: 'g',
      deploymentId: 'd',
      userTurns: 3,
      firstRequest: 'can I get a refund?',
      topics: ['Greeting', 'Refunds', 'Delivery'],
      handedOff: false,
      endReason: 'user',
      analysed: false,
    });
    expect(facts.transcript[0]).toEqual({ user: '', agent: 'answer 0' });
  });

  it('a keypad input is a request too; a handoff and an analysis are remembered', () => {
    const facts = foldFacts([
      started,
      turn(0, ''),
      turn(1, '', '', { dtmf: '1' }),
      {
        type: 'HandoffRequested',
        data: { destination: 'billing', reason: 'dispute', sharedId: '', data: {} },
      },
      ended('handoff'),
      {
        type: 'ConversationAnalysed',
        data: { outcome: 'handoff', topics: [], summary: 's', fields: {}, analyser: 'embedded' },
      },
    ]);
    expect(facts).toMatchObject({ firstRequest: '1', userTurns: 1, handedOff: true, analysed: true });
  });
});

describe('the embedded analyser', () => {
  it('summarises the first request, the topics and the outcome, and leaves every field null', () => {
    const facts = foldFacts([started, turn(0, ''), turn(1, 'can I get a refund?', 'Refunds'), ended()]);
    expect(embeddedAnalysis(facts, FIELDS)).toEqual({
      outcome: 'contained',
      topics: ['Refunds'],
      summary: 'The user asked: "can I get a refund?". Topics cited: Refunds. Outcome: contained (the user ended it).',
      fields: { reason: null, items: null, resolved: null, mood: null },
      analyser: 'embedded',
    });
  });

  it('names abandoned and unconnected conversations, and quotes at most 300 characters', () => {
    expect(embeddedAnalysis(foldFacts([started, turn(0, ''), ended()]), []).summary).toBe(
      'The user said nothing. No topic was cited. Outcome: abandoned (the user ended it).',
    );
    const notConnected = embeddedAnalysis(foldFacts([started, ended('not_connected')]), []);
    expect(notConnected).toMatchObject({
      outcome: 'not_connected',
      summary: 'The call did not connect. Outcome: not_connected.',
    });
    const long = embeddedAnalysis(foldFacts([started, turn(0, 'x'.repeat(1000)), ended()]), []);
    expect(long.summary.length).toBeLessThan(400);
  });
});

describe('the model analyser', () => {
  it('asks for the summary and every field typed or null, enums with their values, nothing else', () => {
    type Schema = { required: string[]; additionalProperties: boolean; properties: Record<string, Schema> };
    const format = analysisSchema(FIELDS) as { type: string; json_schema: { strict: boolean; schema: Schema } };
    expect(format.type).toBe('json_schema');
    expect(format.json_schema.strict).toBe(true);
    const { schema } = format.json_schema;
    expect(schema.required).toEqual(['summary', 'fields']);
    expect(schema.additionalProperties).toBe(false);
    expect(schema.properties.fields.required).toEqual(['reason', 'items', 'resolved', 'mood']);
    expect(schema.properties.fields.properties).toEqual({
      reason: { type: ['string', 'null'], description: 'Why they called' },
      items: { type: ['number', 'null'], description: 'How many items' },
      resolved: { type: ['boolean', 'null'], description: 'Solved?' },
      mood: { type: ['string', 'null'], enum: ['happy', 'angry', null], description: 'Mood' },
    });
  });

  it.each([
    [FIELDS[0], 'damaged parcel', 'damaged parcel'],
    [FIELDS[0], 3, null],
    [FIELDS[1], 3, 3],
    [FIELDS[1], '3', null],
    [FIELDS[1], Number.NaN, null],
    [FIELDS[2], false, false],
    [FIELDS[2], 'no', null],
    [FIELDS[3], 'angry', 'angry'],
    [FIELDS[3], 'furious', null],
    [FIELDS[3], null, null],
  ])('keeps %j = %j as %j', (field, value, kept) => {
    expect(fieldValue(field, value)).toBe(kept);
  });

  const facts = foldFacts([started, turn(0, ''), turn(1, 'refund?', 'Refunds'), ended()]);
  it('keeps what fits the fields; the outcome and topics stay the log’s', () => {
    const text = JSON.stringify({
      summary: ' Wanted a refund. ',
      fields: { reason: 'refund', items: 'two', resolved: true, mood: 'furious', extra: 1 },
      outcome: 'handoff',
    });
    expect(analysisOfAnswer(text, facts, FIELDS)).toEqual({
      outcome: 'contained',
      topics: ['Refunds'],
      summary: 'Wanted a refund.',
      fields: { reason: 'refund', items: null, resolved: true, mood: null },
      analyser: 'model',
    });
  });

  it.each(['not json', '[1]', '{"fields":{}}', '{"summary":"  "}'])('refuses an answer of %s', (text) => {
    expect(() => analysisOfAnswer(text, facts, FIELDS)).toThrow(ModelAnalysisFailed);
  });
});
