import { EVENT_STORE, type EventStore } from '../src/event-store/event-store.port';
import { INLINE_BUILD_MAX_CHARS, TopicIndexBuilder } from '../src/runtime/retrieval/topic-index-builder';
import { syntheticKnowledgeBase } from '../src/runtime/retrieval/synthetic';
import { AgentsClient, createAccount } from './helpers/agents-fixture';
import { expectEnvelope, request, startTestApp, type TestApp } from './helpers/test-app';

const KB = [
  {
    name: 'Refunds',
    content: 'Refunds are paid back to your card within 5 working days.',
    queries: ['can I get a refund', 'how do refunds work', 'money back'],
  },
  {
    name: 'Delivery',
    content: 'Standard delivery takes 2 to 3 days.',
    queries: ['when will my parcel arrive', 'delivery time', 'shipping'],
  },
  {
    name: 'Speak to a human',
    content: 'Let me put you through to a colleague.',
    queries: ['talk to a person', 'human agent please'],
    actions:
      'set_state key=tier value=gold\nlog_metric name=CSAT value=5\nhandoff destination=billing-queue reason="asked for a human" shared_id=$state.conversation_id keys=tier',
  },
];

describe('debug chat', () => {
  let t: TestApp;
  let client: AgentsClient;
  let agentId: string;
  const chat = (path: string, body: unknown) => client.post(`/v1/agents/${agentId}/debug-chat${path}`, body);

  beforeAll(async () => {
    t = await startTestApp({ PARLEY_TEST_CLOCK: '1', DEBUG_CHAT_TIMEOUT_S: '600' });
    client = new AgentsClient(t, await createAccount(t));
    agentId = (await client.createAgent('Shop', 'Hi! I am the shop assistant.')).agentId;
  });
  afterAll(async () => t.close());

  it('has nothing to talk to before the first merge: 400 CHAT_DRAFT_NOT_EXIST', async () => {
    expectEnvelope(await chat('', { clientEnv: 'sandbox' }), 400, 'CHAT_DRAFT_NOT_EXIST');
  });

  describe('with a sandbox deployment', () => {
    beforeAll(async () => {
      await client.shipChange(agentId, 'kb', async (branchId) => {
        for (const topic of KB) await client.addTopic(agentId, branchId, topic);
      });
    });

    it('starts with the greeting: 201, empty userInput, every metadata field', async () => {
      const r = await chat('', { clientEnv: 'sandbox' });
      expect(r.status).toBe(201);
      expect(r.body).toMatchObject({
        userInput: '',
        response: 'Hi! I am the shop assistant.',
        conversationEnded: false,
        delayedResponse: false,
      });
      expect(r.body.conversationId).toMatch(/^AS_CHAT_[0-9a-f-]{36}$/);
      expect(Object.keys(r.body.metadata).sort()).toEqual(
        [
          'asrLangCode',
          'citedTopic',
          'currentNode',
          'functionEvents',
          'handoffDestination',
          'inFlow',
          'inStep',
          'llmRequests',
          'metrics',
          'nodeTrace',
          'retrievedSources',
          'retrievedTopics',
          'state',
          'ttsLangCode',
        ].sort(),
      );
      expect(r.body.metadata.state).toMatchObject({
        conversation_id: r.body.conversationId,
        channel: 'CHAT',
        environment: 'sandbox',
        language: 'en-GB',
      });
    });

    it('answers from the best topic, even inflected, and marks unrelated questions out of domain', async () => {
      const { conversationId } = (await chat('', { clientEnv: 'sandbox' })).body;
      const refund = await chat(`/${conversationId}`, { clientEnv: 'sandbox', message: 'Are refunds possible?' });
      expect(refund.status).toBe(200);
      expect(refund.body).toMatchObject({
        conversationId,
        userInput: 'Are refunds possible?',
        response: KB[0].content,
      });
      expect(refund.body.metadata.citedTopic).toBe('Refunds');
      expect(refund.body.metadata.retrievedTopics[0]).toBe('Refunds');
      const weather = await chat(`/${conversationId}`, {
        clientEnv: 'sandbox',
        message: 'What is the weather on Mars tomorrow?',
      });
      expect(weather.body.metadata.citedTopic).toBe('');
      expect(weather.body.metadata.currentNode).toBe('fallback');
    });

    it("runs the cited topic's actions: state, metrics, handoff ends the agent's part", async () => {
      const { conversationId } = (await chat('', { clientEnv: 'sandbox' })).body;
      const r = await chat(`/${conversationId}`, {
        clientEnv: 'sandbox',
        message: 'I want to talk to a human agent please',
      });
      expect(r.body.metadata.citedTopic).toBe('Speak to a human');
      expect(r.body.metadata.state.tier).toBe('gold');
      expect(r.body.metadata.metrics).toEqual({ CSAT: '5' });
      expect(r.body.metadata.handoffDestination).toBe('billing-queue');
      expect(r.body.metadata.functionEvents.map((f: { name: string }) => f.name)).toEqual([
        'set_state',
        'log_metric',
        'handoff',
      ]);
      expect(r.body.conversationEnded).toBe(true);
      expectEnvelope(
        await chat(`/${conversationId}`, { clientEnv: 'sandbox', message: 'hello?' }),
        410,
        'CHAT_CONVERSATION_ENDED',
      );
    });

    it('records every turn on the conversation stream, the audit record', async () => {
      const { conversationId } = (await chat('', { clientEnv: 'sandbox' })).body;
      await chat(`/${conversationId}`, {
        clientEnv: 'sandbox',
        message: 'delivery time?',
        metadata: { page: 'checkout' },
      });
      const events = await t.app.get<EventStore>(EVENT_STORE).readStream(`conversation-${conversationId}`);
      expect(events.map((e) => e.type)).toEqual([
        'ConversationStarted',
        'StateChanged',
        'TurnRecorded',
        'TurnRecorded',
      ]);
      expect(events[3].data).toMatchObject({
        turnIndex: 1,
        userInput: 'delivery time?',
        citedTopic: 'Delivery',
        inputMetadata: { page: 'checkout' },
      });
      expect(events[3].data).toHaveProperty('latency.stages.retrieval');
    });

    it('processes concurrent messages to one conversation one after the other, none lost', async () => {
      const { conversationId } = (await chat('', { clientEnv: 'sandbox' })).body;
      const replies = await Promise.all(
        Array.from({ length: 10 }, (_, i) =>
          chat(`/${conversationId}`, { clientEnv: 'sandbox', message: `refund question ${i}` }),
        ),
      );
      expect(replies.every((r) => r.status === 200)).toBe(true);
      const turns = (await t.app.get<EventStore>(EVENT_STORE).readStream(`conversation-${conversationId}`)).filter(
        (e) => e.type === 'TurnRecorded',
      );
      expect(turns.map((e) => (e.data as { turnIndex: number }).turnIndex)).toEqual(
        Array.from({ length: 11 }, (_, i) => i),
      );
      expect(new Set(turns.slice(1).map((e) => (e.data as { userInput: string }).userInput)).size).toBe(10);
    });

    it('keeps serving what was merged: a branch edit is invisible until its merge, promotions reach pre-release and live', async () => {
      const branch = await client.createBranch(agentId, 'edit-refunds');
      const refunds = (await client.topics(agentId, branch.branchId)).find((x) => x.name === 'Refunds')!;
      await client.editTopic(agentId, branch.branchId, refunds.id, { content: 'Refunds now take 1 day.' });
      const before = (await chat('', { clientEnv: 'sandbox' })).body.conversationId;
      expect((await chat(`/${before}`, { clientEnv: 'sandbox', message: 'refund' })).body.response).toBe(KB[0].content);
      await client.merge(agentId, branch.branchId);
      const after = (await chat('', { clientEnv: 'sandbox' })).body.conversationId;
      expect((await chat(`/${after}`, { clientEnv: 'sandbox', message: 'refund' })).body.response).toBe(
        'Refunds now take 1 day.',
      );
      // a conversation keeps the deployment it started on
      expect((await chat(`/${before}`, { clientEnv: 'sandbox', message: 'refund' })).body.response).toBe(KB[0].content);

      expectEnvelope(await chat('', { clientEnv: 'live' }), 400, 'CHAT_DRAFT_NOT_EXIST');
      const sandbox = (await client.active(agentId)).sandbox!;
      const pre = await client.promote(agentId, sandbox.id);
      await client.promote(agentId, pre.id, 'live');
      const live = (await chat('', { clientEnv: 'live' })).body.conversationId;
      expect((await chat(`/${live}`, { clientEnv: 'live', message: 'refund' })).body.response).toBe(
        'Refunds now take 1 day.',
      );
    });

    it('answers every error of contract §7 in the envelope', async () => {
      const { conversationId } = (await chat('', { clientEnv: 'sandbox' })).body;
      expectEnvelope(
        await chat('/AS_CHAT_00000000-0000-0000-0000-000000000000', { clientEnv: 'sandbox', message: 'hi' }),
        404,
        'CONVERSATIONS_NOT_FOUND',
      );
      expectEnvelope(
        await chat('/not-a-chat-id', { clientEnv: 'sandbox', message: 'hi' }),
        404,
        'CONVERSATIONS_NOT_FOUND',
      );
      expectEnvelope(
        await chat(`/${conversationId}`, { clientEnv: 'live', message: 'hi' }),
        400,
        'CLIENT_ENV_MISMATCH',
      );
      expectEnvelope(await chat(`/${conversationId}`, { message: 'hi' }), 400, 'VALIDATION_ERROR');
      expectEnvelope(await chat('', { clientEnv: 'staging' }), 400, 'VALIDATION_ERROR');
      expectEnvelope(await chat(`/${conversationId}`, { clientEnv: 'sandbox', message: 42 }), 400, 'VALIDATION_ERROR');
      // idle past DEBUG_CHAT_TIMEOUT_S on the platform clock
      await request(`${t.url}/admin/v1/clock/advance`, {
        body: { seconds: 601 },
        headers: { 'x-operator-token': t.operatorToken },
      });
      expectEnvelope(
        await chat(`/${conversationId}`, { clientEnv: 'sandbox', message: 'still there?' }),
        400,
        'CHAT_TIMEOUT',
      );
      expectEnvelope(
        await chat(`/${conversationId}`, { clientEnv: 'sandbox', message: 'hello?' }),
        410,
        'CHAT_CONVERSATION_ENDED',
      );
    });

    it('indexes a large knowledge base on the index thread, starting with the greeting, and answers from it', async () => {
      const large = (await client.createAgent('Large')).agentId;
      const kb = syntheticKnowledgeBase(40, 40, 3);
      const topics = kb.topics.map((topic) => ({
        name: topic.name,
        content: topic.content,
        queries: topic.exampleQueries.slice(0, 20),
      }));
      expect(
        topics.reduce(
          (size, topic) => size + topic.name.length + topic.content.length + topic.queries.join('').length,
          0,
        ),
      ).toBeGreaterThan(INLINE_BUILD_MAX_CHARS);
      await client.shipChange(large, 'kb', async (branchId) => {
        for (const topic of topics) await client.addTopic(large, branchId, topic);
      });
      const builder = t.app.get(TopicIndexBuilder);
      const before = builder.threadBuilds;
      const talk = (path: string, body: unknown) => client.post(`/v1/agents/${large}/debug-chat${path}`, body);
      const { conversationId } = (await talk('', { clientEnv: 'sandbox' })).body;
      const asked = topics[7];
      const r = await talk(`/${conversationId}`, { clientEnv: 'sandbox', message: asked.queries[0] });
      expect(r.status).toBe(200);
      expect(r.body.metadata.retrievedTopics).toContain(asked.name);
      expect(builder.threadBuilds).toBe(before + 1);
      // a second conversation on the same deployment uses the same index
      const again = (await talk('', { clientEnv: 'sandbox' })).body.conversationId;
      await talk(`/${again}`, { clientEnv: 'sandbox', message: asked.queries[1] });
      expect(builder.threadBuilds).toBe(before + 1);
    });

    it("belongs to its agent: another agent's path does not find it", async () => {
      const other = (await client.createAgent('Other')).agentId;
      const { conversationId } = (await chat('', { clientEnv: 'sandbox' })).body;
      expectEnvelope(
        await client.post(`/v1/agents/${other}/debug-chat/${conversationId}`, { clientEnv: 'sandbox', message: 'hi' }),
        404,
        'CONVERSATIONS_NOT_FOUND',
      );
    });
  });
});
