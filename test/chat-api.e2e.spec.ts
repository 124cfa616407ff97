import http from 'node:http';
import { loadConfig } from '../src/platform/config/config';
import { AgentsClient, createAccount, oneYearAhead, type AgentsAccount } from './helpers/agents-fixture';
import { eventually } from './helpers/conversations-fixture';
import { advanceClock, operatorKey } from './helpers/keys-fixtures';
import { expectEnvelope, request, startTestApp, type JsonResponse, type TestApp } from './helpers/test-app';

const KB = [
  {
    name: 'Refunds',
    content: 'Refunds are paid back to your card within 5 working days.',
    queries: ['can I get a refund', 'how do refunds work', 'money back'],
  },
  {
    name: 'Speak to a human',
    content: 'Let me put you through to a colleague.',
    queries: ['talk to a person', 'human agent please'],
    actions: 'handoff destination=billing-queue reason="asked for a human" shared_id=$state.user_id',
  },
  {
    name: 'Goodbye',
    content: 'Goodbye!',
    queries: ['bye', 'that is all, goodbye'],
    actions: 'end_conversation',
  },
];

const IDLE_S = 600;

describe('Chat API (contract §16)', () => {
  let t: TestApp;
  let admin: AgentsClient;
  let account: AgentsAccount;
  let agentId: string;
  let otherAgentId: string;
  let chatKey: string;

  const chat = (action: 'create' | 'respond' | 'close', body: unknown, key = chatKey, project = agentId) =>
    request(`${t.url}/v1/${account.accountId}/${project}/chat/${action}`, {
      method: action === 'close' ? 'PUT' : 'POST',
      body,
      headers: { 'x-api-key': key },
    });
  const conversation = (id: string, project = agentId) =>
    request(`${t.url}/v3/${account.accountId}/${project}/conversations/${id}?include_context_state=true`, {
      headers: { 'x-api-key': chatKey },
    });

  beforeAll(async () => {
    t = await startTestApp({ PARLEY_TEST_CLOCK: '1', CHAT_IDLE_S: String(IDLE_S) });
    account = await createAccount(t, 'Chatty');
    admin = new AgentsClient(t, account);
    agentId = (await admin.createAgent('Shop', 'Hi! I am the shop assistant.')).agentId;
    await admin.shipChange(agentId, 'kb', async (branchId) => {
      for (const topic of KB) await admin.addTopic(agentId, branchId, topic);
    });
    const sandbox = (await admin.active(agentId)).sandbox!;
    await admin.promote(agentId, (await admin.promote(agentId, sandbox.id, 'pre-release')).id, 'live');
    otherAgentId = (await admin.createAgent('Draft', 'Never deployed.')).agentId;
    chatKey = (await operatorKey(t, account.accountId, { permissions: ['chat', 'conversations'] })).key;
  });
  afterAll(async () => t.close());

  it('creates a chat on the live deployment: 201 with the greeting, a CHAT-<uuid> id, channel CHAT', async () => {
    const r = await chat('create', {});
    expect(r.status).toBe(201);
    expect(r.body).toEqual({
      conversation_id: expect.stringMatching(/^CHAT-[0-9a-f-]{36}$/),
      response: 'Hi! I am the shop assistant.',
      end_conversation: false,
    });
    const c = await conversation(r.body.conversation_id);
    expect(c.status).toBe(200);
    expect(c.body).toMatchObject({ id: r.body.conversation_id, channel: 'CHAT', environment: 'live' });
  });

  it('answers the first message when create carries one, with metadata and user_id in state', async () => {
    const r = await chat('create', {
      message: 'can I get a refund',
      metadata: { order: 'A-17', vip: true },
      user_id: 'u-42',
      client_env: 'sandbox',
    });
    expect(r.status).toBe(201);
    expect(r.body.response).toBe('Refunds are paid back to your card within 5 working days.');
    const c = await conversation(r.body.conversation_id);
    expect(c.status).toBe(200);
    expect(c.body.environment).toBe('sandbox');
    expect(c.body.state).toMatchObject({ metadata: { order: 'A-17', vip: true }, user_id: 'u-42', channel: 'CHAT' });
  });

  it('responds turn by turn, and hands off with destination, reason and shared_id (which ends it)', async () => {
    const id = (await chat('create', { user_id: 'u-7' })).body.conversation_id;
    const answer = await chat('respond', { conversation_id: id, message: 'how do refunds work' });
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({
      conversation_id: id,
      response: 'Refunds are paid back to your card within 5 working days.',
      end_conversation: false,
    });
    const handoff = await chat('respond', { conversation_id: id, message: 'talk to a person' });
    expect(handoff.status).toBe(200);
    expect(handoff.body).toEqual({
      conversation_id: id,
      response: 'Let me put you through to a colleague.',
      end_conversation: true,
      handoff: { destination: 'billing-queue', reason: 'asked for a human', shared_id: 'u-7' },
    });
    expectEnvelope(await chat('respond', { conversation_id: id, message: 'hello?' }), 410, 'CHAT_CONVERSATION_ENDED');
  });

  it('ends when the agent ends it: end_conversation true, then 410', async () => {
    const id = (await chat('create', {})).body.conversation_id;
    const bye = await chat('respond', { conversation_id: id, message: 'bye' });
    expect(bye.body).toEqual({ conversation_id: id, response: 'Goodbye!', end_conversation: true });
    expectEnvelope(await chat('respond', { conversation_id: id, message: 'hello?' }), 410, 'CHAT_CONVERSATION_ENDED');
  });

  it('closes a chat: 200 {success: true}; then respond and close answer 410', async () => {
    const id = (await chat('create', {})).body.conversation_id;
    const closed = await chat('close', { conversation_id: id });
    expect(closed.status).toBe(200);
    expect(closed.body).toEqual({ success: true });
    expectEnvelope(await chat('respond', { conversation_id: id, message: 'hi' }), 410, 'CHAT_CONVERSATION_ENDED');
    expectEnvelope(await chat('close', { conversation_id: id }), 410, 'CHAT_CONVERSATION_ENDED');
    expect((await conversation(id)).body.in_progress).toBe(false);
  });

  it('answers 404 CONVERSATION_NOT_FOUND for unknown ids, other channels and other projects', async () => {
    const other = await operatorKey(t, account.accountId, { permissions: ['agents'] });
    const debug = await request(`${t.url}/v1/agents/${agentId}/debug-chat`, {
      body: { clientEnv: 'sandbox' },
      headers: { 'x-api-key': other.key },
    });
    const mine = (await chat('create', {})).body.conversation_id;
    for (const [id, project] of [
      ['CHAT-00000000-0000-4000-8000-000000000000', agentId],
      ['nonsense', agentId],
      [debug.body.conversationId, agentId],
      [mine, otherAgentId],
    ]) {
      expectEnvelope(
        await chat('respond', { conversation_id: id, message: 'hi' }, chatKey, project),
        404,
        'CONVERSATION_NOT_FOUND',
      );
      expectEnvelope(await chat('close', { conversation_id: id }, chatKey, project), 404, 'CONVERSATION_NOT_FOUND');
    }
  });

  it('answers 400 NO_ACTIVE_DEPLOYMENT when client_env has no deployment', async () => {
    expectEnvelope(await chat('create', {}, chatKey, otherAgentId), 400, 'NO_ACTIVE_DEPLOYMENT');
  });

  it.each([
    ['create', { metadata: [1, 2] }, 'metadata'],
    ['create', { metadata: 'x' }, 'metadata'],
    ['create', { client_env: 'prod' }, 'client_env'],
    ['create', { message: 12 }, 'message'],
    ['create', { user_id: { a: 1 } }, 'user_id'],
    ['respond', {}, 'conversation_id'],
    ['respond', { conversation_id: 5 }, 'conversation_id'],
    ['close', { conversation_id: null }, 'conversation_id'],
  ] as const)('refuses %s with %j: 400 naming %s', async (action, body, field) => {
    const r = expectEnvelope(await chat(action, body), 400);
    expect(r.error).toContain(field);
  });

  it('refuses malformed JSON with 400', async () => {
    const r = await request(`${t.url}/v1/${account.accountId}/${agentId}/chat/create`, {
      rawBody: '{"message": ',
      headers: { 'x-api-key': chatKey, 'content-type': 'application/json' },
    });
    expectEnvelope(r, 400);
  });

  it('needs a live key with the chat permission that reaches the project', async () => {
    expectEnvelope(await chat('create', {}, ''), 401);
    expectEnvelope(await chat('create', {}, 'sk_not_a_key'), 401);
    const noChat = await operatorKey(t, account.accountId, { permissions: ['conversations', 'agents'] });
    expectEnvelope(await chat('create', {}, noChat.key), 403, 'PERMISSION_DENIED');
    const scoped = await operatorKey(t, account.accountId, { permissions: ['chat'], agents: [otherAgentId] });
    expectEnvelope(await chat('create', {}, scoped.key), 403, 'AGENT_FORBIDDEN');
    const stranger = await createAccount(t, 'Stranger', ['chat', 'keys']);
    expectEnvelope(await chat('create', {}, stranger.key), 403, 'ACCOUNT_FORBIDDEN');
    const theirs = (await chat('create', {})).body.conversation_id;
    // the stranger's key on its own account's path still cannot reach our project
    const r = await request(`${t.url}/v1/${stranger.accountId}/${agentId}/chat/respond`, {
      body: { conversation_id: theirs, message: 'hi' },
      headers: { 'x-api-key': stranger.key },
    });
    expect([403, 404]).toContain(r.status);
    expectEnvelope(r, r.status);
  });

  it('replays create under the same Idempotency-Key, and refuses the key with another body (409)', async () => {
    const send = (body: unknown) =>
      request(`${t.url}/v1/${account.accountId}/${agentId}/chat/create`, {
        body,
        headers: { 'x-api-key': chatKey, 'idempotency-key': 'chat-create-1' },
      });
    const first = await send({ user_id: 'same' });
    const again = await send({ user_id: 'same' });
    expect(first.status).toBe(201);
    expect(again.status).toBe(201);
    expect(again.body).toEqual(first.body);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expectEnvelope(await send({ user_id: 'other' }), 409, 'IDEMPOTENCY_KEY_REUSED');
  });

  it('ends an idle chat after CHAT_IDLE_S on the platform clock: the timer ends it, respond answers 410', async () => {
    const idle = (await chat('create', {})).body.conversation_id;
    const busy = (await chat('create', {})).body.conversation_id;
    await advanceClock(t, IDLE_S - 100);
    expect((await chat('respond', { conversation_id: busy, message: 'money back' })).status).toBe(200);
    await advanceClock(t, 101);
    // the idle one ends by its timer, with no request touching it
    const ended = await eventually(async () => {
      const c = await conversation(idle);
      if (c.body.in_progress !== false) throw new Error(`still in progress: ${JSON.stringify(c.body)}`);
      return c;
    }, 10_000);
    expect(ended.status).toBe(200);
    expectEnvelope(await chat('respond', { conversation_id: idle, message: 'hi' }), 410, 'CHAT_CONVERSATION_ENDED');
    // the other saw a turn 101 s ago: still open
    expect((await chat('respond', { conversation_id: busy, message: 'money back' })).status).toBe(200);
    await advanceClock(t, IDLE_S + 1);
    expectEnvelope(await chat('respond', { conversation_id: busy, message: 'hi' }), 410, 'CHAT_CONVERSATION_ENDED');
  });

  it('hands out ids readable at once: every chat is 200 from the Conversations API right after create', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 20; i++) {
      const id = (await chat('create', { message: 'can I get a refund' })).body.conversation_id;
      statuses.push((await conversation(id)).status);
    }
    expect(statuses).toEqual(Array(20).fill(200));
  });
});

describe('Chat API settings and hosts', () => {
  it('validates CHAT_IDLE_S', () => {
    for (const bad of ['0', '-5', 'abc', '1.5']) expect(() => loadConfig({ CHAT_IDLE_S: bad })).toThrow(/CHAT_IDLE_S/);
    expect(loadConfig({}).chatIdleS).toBe(1800);
  });

  it('answers on the platform host of its region only (PUBLIC_DOMAIN)', async () => {
    const t = await startTestApp({ PUBLIC_DOMAIN: 'example.test', REGION: 'us' });
    try {
      const op = { 'x-operator-token': t.operatorToken };
      const accountId = (await raw(t, 'x', 'POST', '/admin/v1/accounts', op, { name: 'H', region: 'us' })).body
        .accountId;
      const key = { name: 'k', agents: 'all', permissions: ['chat', 'agents'], expiresAt: oneYearAhead() };
      const secret = (await raw(t, 'x', 'POST', `/admin/v1/accounts/${accountId}/api-keys`, op, key)).body.key;
      const agent = (
        await raw(
          t,
          'api.us.example.test',
          'POST',
          `/v1/accounts/${accountId}/agents`,
          { 'x-api-key': secret },
          {
            name: 'Host agent',
            responseSettings: { greeting: 'Hello' },
          },
        )
      ).body.agentId;
      const path = `/v1/${accountId}/${agent}/chat/create`;
      const headers = { 'x-api-key': secret };
      // the platform host reaches the route (no deployment yet: the route's own 400)
      expect((await raw(t, 'api.us-1.platform.example.test', 'POST', path, headers, {})).body.error_code).toBe(
        'NO_ACTIVE_DEPLOYMENT',
      );
      expect((await raw(t, 'api.us.example.test', 'POST', path, headers, {})).status).toBe(404);
      expect((await raw(t, 'api.uk-1.platform.example.test', 'POST', path, headers, {})).status).toBe(404);
      expect((await raw(t, 'example.test', 'POST', path, headers, {})).status).toBe(400);
    } finally {
      await t.close();
    }
  });
});

/** fetch cannot set Host: a raw request can, as a client behind DNS would send it. */
function raw(
  t: TestApp,
  host: string,
  method: string,
  path: string,
  headers: Record<string, string>,
  body?: unknown,
): Promise<Pick<JsonResponse, 'status' | 'body'>> {
  const url = new URL(t.url);
  const data = body === undefined ? undefined : JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: url.hostname,
        port: url.port,
        path,
        method,
        headers: { host, ...(data ? { 'content-type': 'application/json' } : {}), ...headers },
      },
      (res) => {
        let text = '';
        res.on('data', (c) => (text += c));
        res.on('end', () => resolve({ status: res.statusCode!, body: text ? JSON.parse(text) : null }));
      },
    );
    req.on('error', reject);
    req.end(data);
  });
}
