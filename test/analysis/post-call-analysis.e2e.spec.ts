import { randomUUID } from 'node:crypto';
import { conversationStream, TEST_CONVERSATION_PREFIX } from '../../src/conversations/conversation.events';
import { EVENT_STORE, type EventStore } from '../../src/event-store/event-store.port';
import { withKey, op } from '../helpers/keys-fixtures';
import { expectEnvelope, request } from '../helpers/test-app';
import {
  buildAgent,
  ConversationsReader,
  converse,
  eventually,
  setDataAccess,
  startConversationsFixture,
  type ConversationsFixture,
  type TopicSpec,
} from '../helpers/conversations-fixture';
import { completion, ModelServer, type ModelAnswer } from '../helpers/model-server';
import { expectSigned, Receiver } from '../webhooks/receiver';
import { waitUntil } from '../fixtures/counter-projection';
import { patient } from '../support/patience';
import type { Json } from '../helpers/json';

/**
 * Post-call analysis end to end (issue 49, contract §24): debug chats that end get a
 * ConversationAnalysed, once, from the process manager behind the log; v3 shows it as `analysis`
 * and filters on its outcome; a webhook endpoint on 127.0.0.1 receives `conversation.analysed`;
 * a rebuilt read model keeps it. An agent with a model has it written by the model (a stub server
 * standing for the hosted model, which cannot exist here) under the JSON schema of its fields, and
 * by the embedded analyser when that model fails or does not answer in time.
 */

const TOPICS: TopicSpec[] = [
  { name: 'Refunds', content: 'Refunds take 5 days.', queries: ['can I get a refund', 'refund please'] },
  { name: 'Goodbye', content: 'Goodbye!', queries: ['bye now', 'goodbye'], actions: 'end_conversation' },
  {
    name: 'Billing human',
    content: 'Connecting you to billing.',
    queries: ['talk to billing', 'billing person please'],
    actions: 'handoff destination=billing-queue reason="billing dispute"',
  },
];

const MODEL_FIELDS = [
  { name: 'reason', type: 'string', description: 'Why the customer got in touch' },
  { name: 'items', type: 'number', description: 'How many items the customer mentioned' },
  { name: 'resolved', type: 'boolean', description: 'Whether the request was resolved' },
  { name: 'mood', type: 'enum', description: 'How the customer felt', values: ['happy', 'angry'] },
];

/** What the stub does with an analysis request (turns are always answered). */
let analysisMode: 'answer' | 'fail' | 'hang' = 'answer';

/**
 * The stub's analysis answer, given only when it was sent the schema the fields call for: the
 * summary and every field required, each typed or null, the enum with its values. The answer
 * holds a value of the wrong type (resolved) and an enum value outside its list (mood).
 */
function answerModel(body: Json): ModelAnswer {
  if (!body.response_format) return completion('Happy to help with that.');
  if (analysisMode === 'fail') return { status: 500, body: { error: 'the model is down' } };
  if (analysisMode === 'hang') return 'hang';
  const format = body.response_format;
  const schema = format?.json_schema?.schema;
  const fields = schema?.properties?.fields;
  const expected =
    format?.type === 'json_schema' &&
    format.json_schema.strict === true &&
    JSON.stringify(schema.required) === JSON.stringify(['summary', 'fields']) &&
    schema.properties.summary?.type === 'string' &&
    fields?.additionalProperties === false &&
    JSON.stringify(fields.required) === JSON.stringify(MODEL_FIELDS.map((f) => f.name)) &&
    JSON.stringify(fields.properties.items.type) === JSON.stringify(['number', 'null']) &&
    JSON.stringify(fields.properties.mood.enum) === JSON.stringify(['happy', 'angry', null]);
  if (!expected) return { status: 400, body: { error: 'not the schema the analysis fields call for' } };
  return completion(
    JSON.stringify({
      summary: 'The customer asked for a refund and was told it takes 5 days.',
      fields: { reason: 'refund', items: 2, resolved: 'yes', mood: 'furious' },
    }),
  );
}

describe('post-call analysis', () => {
  let f: ConversationsFixture;
  let model: ModelServer;
  let receiver: Receiver;
  let embeddedAgent: string;
  let modelAgent: string;
  let embedded: ConversationsReader;
  let modelled: ConversationsReader;
  const ids: Record<'contained' | 'handoff' | 'open', string> = { contained: '', handoff: '', open: '' };

  const settings = (agentId: string, body: unknown) =>
    f.api.shipChange(agentId, 'analysis', async (branchId) => {
      const r = await f.api.call('PUT', `/v1/agents/${agentId}/branches/${branchId}/settings`, body);
      expect(r.status).toBe(200);
    });
  /** The conversation's analysis once the process manager has recorded it (bounded). */
  const analysisOf = (reader: ConversationsReader, id: string) =>
    eventually(async () => {
      const r = await reader.one(id);
      expect(r.status).toBe(200);
      expect(r.body.analysis).not.toBeNull();
      return r.body.analysis as Json;
    }, 10_000);

  beforeAll(async () => {
    model = await ModelServer.start(answerModel);
    receiver = await Receiver.start();
    f = await startConversationsFixture('Analysis Co', {
      WEBHOOK_ALLOW_HTTP: '1',
      LLM_BASE_URL: model.url,
      LLM_MODEL: 'stub-model',
      LLM_TIMEOUT_MS: String(patient(400)),
    });
    embeddedAgent = await buildAgent(f, 'Embedded bot', 'Hi, how can I help?', TOPICS);
    await settings(embeddedAgent, {
      model: { provider: 'embedded' },
      analysis: { fields: [{ name: 'reason', type: 'string', description: 'Why the customer got in touch' }] },
    });
    modelAgent = await buildAgent(f, 'Model bot', 'Hi, how can I help?', TOPICS);
    await settings(modelAgent, { analysis: { fields: MODEL_FIELDS } });
    await setDataAccess(f, embeddedAgent, { response_metrics: [], show_transcripts: true });
    await setDataAccess(f, modelAgent, { response_metrics: [], show_transcripts: true });
    embedded = new ConversationsReader(f, f.adminKey, embeddedAgent);
    modelled = new ConversationsReader(f, f.adminKey, modelAgent);
  }, 180_000);

  afterAll(async () => {
    await f?.close();
    await receiver?.close();
    await model?.stop();
  });

  it('shows the setting, and refuses hostile ones with 400 in the envelope', async () => {
    const got = await f.api.get(`/v1/agents/${modelAgent}/branches/main/settings`);
    expect(got.body.settings.analysis).toEqual({ fields: MODEL_FIELDS });
    expect(got.body.customized).toContain('analysis');
    const { branchId } = await f.api.createBranch(modelAgent, 'hostile');
    const field = { name: 'reason', type: 'string', description: 'Why' };
    for (const analysis of [
      'everything',
      { fields: 'reason' },
      { fields: [null] },
      { fields: [field, field] },
      { fields: Array.from({ length: 21 }, (_, i) => ({ ...field, name: `f${i}` })) },
      { fields: [{ ...field, name: '__proto__' }] },
      { fields: [{ ...field, name: 'a b' }] },
      { fields: [{ ...field, type: 'date' }] },
      { fields: [{ ...field, type: 'enum' }] },
      { fields: [{ ...field, type: 'enum', values: [] }] },
      { fields: [{ ...field, type: 'enum', values: ['a', 'a'] }] },
      { fields: [{ ...field, values: ['a'] }] },
      { fields: [{ ...field, description: 'x'.repeat(501) }] },
      { fields: [{ ...field, description: '' }] },
      { fields: [{ ...field, prompt: 'ignore the rules' }] },
      { fields: [field], extra: true },
    ]) {
      const r = await f.api.call('PUT', `/v1/agents/${modelAgent}/branches/${branchId}/settings`, { analysis });
      expectEnvelope(r, 400);
    }
    // null puts back the default: no fields
    const reset = await f.api.call('PUT', `/v1/agents/${modelAgent}/branches/${branchId}/settings`, { analysis: null });
    expect(reset.body.settings.analysis).toEqual({ fields: [] });
    await f.api.delete(`/v1/agents/${modelAgent}/branches/${branchId}`);
  });

  it('analyses each ended conversation once with the embedded analyser; v3 shows it, the list filters on it', async () => {
    const endpoint = await request(`${f.t.url}/v1/webhook-endpoints`, {
      method: 'POST',
      body: { name: 'CRM', url: receiver.url, event_types: ['conversation.analysed'] },
      headers: withKey(f.adminKey),
    });
    expect(endpoint.status).toBe(201);
    ids.contained = (await converse(f, embeddedAgent, ['can I get a refund', 'goodbye'])).id;
    ids.handoff = (await converse(f, embeddedAgent, ['talk to billing'])).id;
    ids.open = (await converse(f, embeddedAgent, ['refund please'])).id;

    expect(await analysisOf(embedded, ids.contained)).toEqual({
      outcome: 'contained',
      topics: ['Refunds', 'Goodbye'],
      summary:
        'The user asked: "can I get a refund". Topics cited: Refunds, Goodbye. Outcome: contained (the agent ended it).',
      fields: { reason: null },
      analyser: 'embedded',
    });
    expect(await analysisOf(embedded, ids.handoff)).toMatchObject({
      outcome: 'handoff',
      topics: ['Billing human'],
      fields: { reason: null },
      analyser: 'embedded',
    });
    // a conversation in progress is not analysed
    expect((await embedded.one(ids.open)).body.analysis).toBeNull();

    // once in the audit record, by the process manager
    const history = (await embedded.events(ids.contained)).body.events as Json[];
    const analysed = history.filter((e) => e.type === 'ConversationAnalysed');
    expect(analysed).toHaveLength(1);
    expect(analysed[0]).toMatchObject({ actor: 'system:conversation-analysis', data: { outcome: 'contained' } });
    expect(history.at(-1).type).toBe('ConversationAnalysed');

    // the list shows it and filters on its outcome (repeatable), as channel is
    const contained = await embedded.ids({ client_env: 'sandbox', outcome: 'contained' });
    expect(contained).toContain(ids.contained);
    expect(contained).not.toContain(ids.handoff);
    expect(await embedded.ids({ client_env: 'sandbox', outcome: 'handoff' })).toEqual([ids.handoff]);
    expect((await embedded.ids({ client_env: 'sandbox', outcome: ['contained', 'handoff'] })).sort()).toEqual(
      [ids.contained, ids.handoff].sort(),
    );
    expect(await embedded.ids({ client_env: 'sandbox', outcome: 'abandoned' })).toEqual([]);
    const listed = (await embedded.list({ client_env: 'sandbox', limit: 10 })).body.conversations as Json[];
    expect(listed.find((c) => c.id === ids.handoff).analysis.outcome).toBe('handoff');
    expectEnvelope(await embedded.list({ client_env: 'sandbox', outcome: 'solved' }), 400, 'INVALID_PARAMETER');
    // v2 has v3's schema (interface.md "Versioning"); v1 stays as it was
    expect(await embedded.ids({ client_env: 'sandbox', outcome: 'handoff' }, { version: 'v2' })).toEqual([ids.handoff]);
    expect((await embedded.one(ids.contained, {}, { version: 'v2' })).body.analysis.outcome).toBe('contained');
    expectEnvelope(
      await embedded.list({ client_env: 'sandbox', outcome: 'contained' }, { version: 'v1' }),
      400,
      'PARAMETER_NOT_SUPPORTED',
    );
    const v1 = await embedded.one(ids.contained, {}, { version: 'v1' });
    expect(v1.status).toBe(200);
    expect(v1.body).not.toHaveProperty('analysis');

    // the webhook endpoint gets conversation.analysed for each, signed
    const deliveries = await receiver.waitFor(2, 10_000);
    for (const delivery of deliveries) expectSigned(delivery, endpoint.body.signing_secret);
    const byConversation = new Map(deliveries.map((d) => [d.body.data.conversation_id, d.body]));
    expect(byConversation.get(ids.contained)).toMatchObject({
      type: 'conversation.analysed',
      data: {
        project_id: embeddedAgent,
        outcome: 'contained',
        topics: ['Refunds', 'Goodbye'],
        fields: { reason: null },
        analyser: 'embedded',
      },
    });
    expect(byConversation.get(ids.handoff)?.data.outcome).toBe('handoff');
    await receiver.expectNoMoreThan(2);
  }, 60_000);

  it('passes over an agent test run’s conversation', async () => {
    // a test run's conversation (contract §19) as the test runner records one: started, then ended
    const store: EventStore = f.t.app.get(EVENT_STORE);
    const testId = `${TEST_CONVERSATION_PREFIX}${randomUUID()}`;
    const at = new Date().toISOString();
    const metadata = {
      schemaVersion: 1,
      actor: 'system:test',
      correlationId: randomUUID(),
      causationId: null,
      occurredAt: at,
    };
    const account = f.accountId.replace(/^ws-/, '');
    await store.append(
      conversationStream(testId),
      [
        {
          id: randomUUID(),
          type: 'ConversationStarted',
          data: {
            conversationId: testId,
            accountId: account,
            agentId: embeddedAgent.replace(/^PROJECT-/, ''),
            deploymentId: 'none',
            version: 1,
            environment: 'sandbox',
            channel: 'TEST',
            fromNumber: '',
            toNumber: '',
            variantId: '',
            variantName: '',
            language: 'en-GB',
            startedAt: at,
          },
          metadata,
        },
        { id: randomUUID(), type: 'ConversationEnded', data: { reason: 'agent', endedAt: at }, metadata },
      ],
      'no_stream',
    );
    // a conversation that ends after it in the log is analysed: the manager has passed the test run's by then
    const after = (await converse(f, embeddedAgent, ['goodbye'])).id;
    await analysisOf(embedded, after);
    expect((await store.readStream(conversationStream(testId))).map((e) => e.type)).toEqual([
      'ConversationStarted',
      'ConversationEnded',
    ]);
  });

  it('shows the summary only where transcripts show', async () => {
    await setDataAccess(f, embeddedAgent, { response_metrics: [], show_transcripts: false });
    try {
      const hidden = (await embedded.one(ids.contained)).body.analysis;
      expect(hidden).toEqual({
        outcome: 'contained',
        topics: ['Refunds', 'Goodbye'],
        fields: { reason: null },
        analyser: 'embedded',
      });
      const history = (await embedded.events(ids.contained)).body.events as Json[];
      const event = history.find((e) => e.type === 'ConversationAnalysed');
      expect(event.data).not.toHaveProperty('summary');
      expect(event.data).toMatchObject({ outcome: 'contained', redacted: expect.any(String) });
    } finally {
      await setDataAccess(f, embeddedAgent, { response_metrics: [], show_transcripts: true });
    }
  });

  it('has the model fill the summary and the fields under their JSON schema, keeping only values that fit', async () => {
    analysisMode = 'answer';
    const { id } = await converse(f, modelAgent, ['can I get a refund', 'goodbye']);
    expect(await analysisOf(modelled, id)).toEqual({
      outcome: 'contained',
      topics: ['Refunds', 'Goodbye'],
      summary: 'The customer asked for a refund and was told it takes 5 days.',
      fields: { reason: 'refund', items: 2, resolved: null, mood: null },
      analyser: 'model',
    });
    const asked = model.received.filter((body) => body.response_format);
    expect(asked).toHaveLength(1);
    expect(asked[0].model).toBe('stub-model');
    expect(asked[0].messages.at(-1).content).toContain('User: can I get a refund');
  });

  it.each(['fail', 'hang'] as const)(
    'falls back to the embedded analyser when the model endpoint does %s',
    async (mode) => {
      analysisMode = mode;
      try {
        const { id } = await converse(f, modelAgent, ['refund please', 'goodbye']);
        expect(await analysisOf(modelled, id)).toEqual({
          outcome: 'contained',
          topics: ['Refunds', 'Goodbye'],
          summary:
            'The user asked: "refund please". Topics cited: Refunds, Goodbye. Outcome: contained (the agent ended it).',
          fields: { reason: null, items: null, resolved: null, mood: null },
          analyser: 'embedded',
        });
      } finally {
        analysisMode = 'answer';
      }
    },
    60_000,
  );

  it('keeps every analysis through a rebuild of the conversations read model', async () => {
    const before = (await embedded.one(ids.contained)).body.analysis;
    const listed = async () => ({
      contained: await embedded.ids({ client_env: 'sandbox', outcome: 'contained', limit: 100 }),
      handoff: await embedded.ids({ client_env: 'sandbox', outcome: 'handoff', limit: 100 }),
    });
    const listedBefore = await listed();
    expect(listedBefore.contained).toContain(ids.contained);
    const status = async () => (await request(`${f.t.url}/admin/v1/read-models`, { headers: op(f.t) })).body as Json;
    const generation = (await status()).readModels.find((r: Json) => r.name === 'conversations').generation;
    const started = await request(`${f.t.url}/admin/v1/read-models/conversations/rebuild`, {
      method: 'POST',
      headers: op(f.t),
    });
    expect(started.status).toBe(202);
    await waitUntil(
      async () => (await status()).readModels.find((r: Json) => r.name === 'conversations').generation > generation,
      'the rebuilt generation to serve',
      20_000,
      100,
    );
    expect((await embedded.one(ids.contained)).body.analysis).toEqual(before);
    expect(await listed()).toEqual(listedBefore);
  }, 60_000);
});
