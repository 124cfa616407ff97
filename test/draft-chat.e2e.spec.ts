import {
  ConversationsReader,
  buildAgent,
  eventually,
  issueKey,
  startConversationsFixture,
  type ConversationsFixture,
} from './helpers/conversations-fixture';
import { expectOk } from './helpers/agents-fixture';
import { expectEnvelope, request } from './helpers/test-app';
import type { Json } from './helpers/json';

/**
 * Draft chat (issue 50, contract §26), against the real app: debug chat with `branchId` talks to
 * the branch's content as it is now, before any merge; every turn reads the branch again; its
 * conversations run in environment `draft` and are listed only with `client_env=draft`; and every
 * refusal a client can meet.
 */
describe('draft chat: debug chat on a branch (contract §26)', () => {
  let f: ConversationsFixture;
  let agentId: string;
  let branchId: string;
  let reader: ConversationsReader;

  const start = (body: unknown) => f.api.post(`/v1/agents/${agentId}/debug-chat`, body);
  const turn = (conversationId: string, body: unknown) =>
    f.api.post(`/v1/agents/${agentId}/debug-chat/${conversationId}`, body);
  const draftTurn = async (conversationId: string, message: string, branch = branchId): Promise<Json> => {
    const r = await turn(conversationId, { branchId: branch, message });
    expectOk(r, 200);
    return r.body;
  };
  const startDraft = async (branch = branchId): Promise<string> => {
    const r = await start({ branchId: branch });
    expectOk(r, 201);
    return r.body.conversationId;
  };

  beforeAll(async () => {
    f = await startConversationsFixture('Draft Chat Co');
    agentId = await buildAgent(f, 'Shop', 'Hello, this is the shop.', [
      { name: 'Refunds', content: 'Refunds take 5 days.', queries: ['how do refunds work', 'money back'] },
    ]);
    branchId = (await f.api.createBranch(agentId, 'gift-cards')).branchId;
    reader = new ConversationsReader(f, await issueKey(f, { permissions: ['conversations'] }), agentId);
  });
  afterAll(async () => f?.close());

  it("answers from a branch edit before any merge, while the environment still answers from main's", async () => {
    await f.api.addTopic(agentId, branchId, {
      name: 'Gift cards',
      content: 'Gift cards are sold at the till, from 10 pounds.',
      queries: ['do you sell gift cards', 'gift vouchers'],
    });
    const started = await start({ branchId });
    expect(started.status).toBe(201);
    expect(started.body).toMatchObject({
      userInput: '',
      response: 'Hello, this is the shop.',
      conversationEnded: false,
    });
    expect(started.body.conversationId).toMatch(/^AS_CHAT_[0-9a-f-]{36}$/);
    expect(started.body.metadata.state.environment).toBe('draft');

    const draft = await draftTurn(started.body.conversationId, 'do you sell gift cards');
    expect(draft.metadata.citedTopic).toBe('Gift cards');
    expect(draft.response).toBe('Gift cards are sold at the till, from 10 pounds.');

    // nothing was merged: sandbox still serves main without the topic
    const sandbox = (await start({ clientEnv: 'sandbox' })).body.conversationId;
    const env = await turn(sandbox, { clientEnv: 'sandbox', message: 'do you sell gift cards' });
    expectOk(env, 200);
    expect(env.body.metadata.citedTopic).not.toBe('Gift cards');
    // main's topics are on the branch too
    expect((await draftTurn(started.body.conversationId, 'how do refunds work')).response).toBe('Refunds take 5 days.');
  });

  it('reads the branch at every turn: the next turn of the same conversation sees a further edit', async () => {
    const id = await startDraft();
    expect((await draftTurn(id, 'gift vouchers')).response).toBe('Gift cards are sold at the till, from 10 pounds.');
    const topic = (await f.api.topicByName(agentId, branchId, 'Gift cards'))!;
    await f.api.editTopic(agentId, branchId, topic.id, { content: 'Gift cards are sold online only.' });
    expect((await draftTurn(id, 'gift vouchers')).response).toBe('Gift cards are sold online only.');
    await f.api.addTopic(agentId, branchId, {
      name: 'Opening hours',
      content: 'We open at 9.',
      queries: ['when do you open', 'opening hours'],
    });
    const hours = await draftTurn(id, 'when do you open');
    expect(hours.metadata.citedTopic).toBe('Opening hours');
    expect(hours.response).toBe('We open at 9.');
    // the prefixed and the bare branch id name the same branch
    const bare = branchId.replace(/^BRANCH-/, '');
    expect((await draftTurn(id, 'opening hours', bare)).response).toBe('We open at 9.');
  });

  it('talks to main as it is now with branchId main', async () => {
    const id = await startDraft('main');
    expect((await draftTurn(id, 'money back', 'main')).response).toBe('Refunds take 5 days.');
    expect((await draftTurn(id, 'do you sell gift cards', 'main')).metadata.citedTopic).not.toBe('Gift cards');
  });

  it('works on an agent that has never been merged (no environment has a deployment)', async () => {
    const fresh = (await f.api.createAgent('Fresh', 'Hi from the draft.')).agentId;
    const branch = (await f.api.createBranch(fresh, 'first')).branchId;
    await f.api.addTopic(fresh, branch, { name: 'Parking', content: 'Park behind the shop.', queries: ['parking'] });
    expectEnvelope(
      await f.api.post(`/v1/agents/${fresh}/debug-chat`, { clientEnv: 'sandbox' }),
      400,
      'CHAT_DRAFT_NOT_EXIST',
    );
    const r = await f.api.post(`/v1/agents/${fresh}/debug-chat`, { branchId: branch });
    expectOk(r, 201);
    expect(r.body.response).toBe('Hi from the draft.');
    const answer = await f.api.post(`/v1/agents/${fresh}/debug-chat/${r.body.conversationId}`, {
      branchId: branch,
      message: 'where can I park',
    });
    expectOk(answer, 200);
    expect(answer.body.response).toBe('Park behind the shop.');
  });

  it('lists draft conversations only with client_env=draft, with environment draft', async () => {
    const draft = await startDraft();
    await draftTurn(draft, 'gift vouchers');
    const sandbox = (await start({ clientEnv: 'sandbox' })).body.conversationId as string;
    // the list is a read model, eventually consistent: both conversations listed first
    await eventually(async () => expect(await reader.ids({ client_env: 'sandbox', limit: 100 })).toContain(sandbox));
    const drafts = await eventually(async () => {
      const listed = await reader.list({ client_env: 'draft', limit: 100 });
      expectOk(listed, 200);
      expect((listed.body.conversations as Json[]).map((c) => c.id)).toContain(draft);
      return listed;
    });
    const ids = (drafts.body.conversations as Json[]).map((c) => c.id);
    expect(ids).not.toContain(sandbox);
    expect((drafts.body.conversations as Json[]).every((c) => c.environment === 'draft')).toBe(true);
    const one = (drafts.body.conversations as Json[]).find((c) => c.id === draft)!;
    expect(one).toMatchObject({ channel: 'CHAT', environment: 'draft' });
    for (const env of [undefined, 'live', 'sandbox', 'pre-release']) {
      const listed = await reader.ids({ limit: 100, ...(env ? { client_env: env } : {}) });
      expect(listed).not.toContain(draft);
    }
    expectEnvelope(await reader.list({ client_env: 'drafts' }), 400);
  });

  it("binds an external event: delivered as the draft's delayed response; after the branch is gone, bound without one", async () => {
    const pay = (await f.api.createBranch(agentId, 'payments')).branchId;
    await f.api.addTopic(agentId, pay, {
      name: 'Pay',
      content: 'I have sent you a payment link.',
      queries: ['I want to pay my bill'],
      actions: 'await_external_event name=payment',
    });
    await f.api.addTopic(agentId, pay, {
      name: 'event:payment',
      content: 'Your payment is $state.external_events.payment.payload.data.status.',
      queries: [],
    });
    const deliver = (eventId: string) =>
      request(
        `${f.t.url}/v1/external-events/webhook?event_id_location=payload&event_id_path=data.id&account_id=${f.accountId}&project_id=${agentId}`,
        { body: { data: { id: eventId, status: 'paid' } }, headers: { 'x-api-key': f.adminKey } },
      );
    const bound = (conversationId: string) =>
      eventually(async () => {
        const events = await reader.events(conversationId);
        expectOk(events, 200);
        expect((events.body.events as Json[]).map((e) => e.type)).toContain('ExternalEventReceived');
      }, 10_000);

    const open = await startDraft(pay);
    const asked = await draftTurn(open, 'I want to pay my bill', pay);
    expectOk(await deliver(asked.metadata.state.external_event_ids.payment), 201);
    await bound(open);
    const delayed = await turn(open, { branchId: pay });
    expectOk(delayed, 200);
    expect(delayed.body).toMatchObject({ response: 'Your payment is paid.', delayedResponse: true, userInput: '' });

    const orphan = await startDraft(pay);
    const again = await draftTurn(orphan, 'I want to pay my bill', pay);
    expectOk(await f.api.delete(`/v1/agents/${agentId}/branches/${pay}`), 204);
    expectOk(await deliver(again.metadata.state.external_event_ids.payment), 201);
    await bound(orphan);
  });

  describe('refusals', () => {
    let draft: string;
    let sandbox: string;
    let other: string;

    beforeAll(async () => {
      draft = await startDraft();
      sandbox = (await start({ clientEnv: 'sandbox' })).body.conversationId;
      other = (await f.api.createBranch(agentId, 'other')).branchId;
    });

    it('clientEnv and branchId together: 400 naming branchId, on start and on a turn', async () => {
      const both = await start({ clientEnv: 'sandbox', branchId });
      expectEnvelope(both, 400, 'VALIDATION_ERROR');
      expect(JSON.stringify(both.body)).toContain('branchId');
      expectEnvelope(await turn(draft, { clientEnv: 'sandbox', branchId, message: 'hi' }), 400, 'VALIDATION_ERROR');
    });

    it('neither: 400 naming clientEnv, as before', async () => {
      const neither = await start({});
      expectEnvelope(neither, 400, 'VALIDATION_ERROR');
      expect(JSON.stringify(neither.body)).toContain('clientEnv');
      expectEnvelope(await turn(draft, { message: 'hi' }), 400, 'VALIDATION_ERROR');
    });

    it('a malformed branchId: 400', async () => {
      expectEnvelope(await start({ branchId: 'BRANCH-no/way' }), 400, 'INVALID_BRANCH_ID');
      expectEnvelope(await start({ branchId: 42 }), 400, 'VALIDATION_ERROR');
      expectEnvelope(await start({ branchId: '' }), 400, 'VALIDATION_ERROR');
    });

    it('an unknown branch: 404 BRANCH_NOT_FOUND, on start and on a turn', async () => {
      expectEnvelope(await start({ branchId: 'BRANCH-nosuchbr' }), 404, 'BRANCH_NOT_FOUND');
      expectEnvelope(await turn(draft, { branchId: 'BRANCH-nosuchbr', message: 'hi' }), 404, 'BRANCH_NOT_FOUND');
    });

    it("another branch than the conversation's, or an environment: 400 CLIENT_ENV_MISMATCH", async () => {
      const mismatch = await turn(draft, { branchId: other, message: 'hi' });
      expectEnvelope(mismatch, 400, 'CLIENT_ENV_MISMATCH');
      expect(mismatch.body.error).toContain(branchId);
      expectEnvelope(await turn(draft, { clientEnv: 'sandbox', message: 'hi' }), 400, 'CLIENT_ENV_MISMATCH');
      expectEnvelope(await turn(sandbox, { branchId, message: 'hi' }), 400, 'CLIENT_ENV_MISMATCH');
      // the conversation was left as it was
      expect((await draftTurn(draft, 'gift vouchers')).metadata.citedTopic).toBe('Gift cards');
    });

    it('an unknown conversation: 404 CONVERSATIONS_NOT_FOUND', async () => {
      expectEnvelope(
        await turn('AS_CHAT_00000000-0000-0000-0000-000000000000', { branchId, message: 'hi' }),
        404,
        'CONVERSATIONS_NOT_FOUND',
      );
    });

    it('a deleted branch: 404 BRANCH_NOT_FOUND, also for its open conversation', async () => {
      const doomed = (await f.api.createBranch(agentId, 'doomed')).branchId;
      const id = await startDraft(doomed);
      expectOk(await f.api.delete(`/v1/agents/${agentId}/branches/${doomed}`), 204);
      expectEnvelope(await start({ branchId: doomed }), 404, 'BRANCH_NOT_FOUND');
      expectEnvelope(await turn(id, { branchId: doomed, message: 'hi' }), 404, 'BRANCH_NOT_FOUND');
    });

    it('a merged branch: 409 BRANCH_MERGED, also for its open conversation; an environment answers instead', async () => {
      const merging = (await f.api.createBranch(agentId, 'merging')).branchId;
      await f.api.addTopic(agentId, merging, {
        name: 'Returns',
        content: 'Return within 30 days.',
        queries: ['returns'],
      });
      const id = await startDraft(merging);
      expect((await draftTurn(id, 'returns', merging)).response).toBe('Return within 30 days.');
      await f.api.merge(agentId, merging);
      const refused = await start({ branchId: merging });
      expectEnvelope(refused, 409, 'BRANCH_MERGED');
      expect(refused.body.error).toMatch(/merged/);
      expectEnvelope(await turn(id, { branchId: merging, message: 'returns' }), 409, 'BRANCH_MERGED');
      const sandboxNow = (await start({ clientEnv: 'sandbox' })).body.conversationId;
      const merged = await turn(sandboxNow, { clientEnv: 'sandbox', message: 'returns' });
      expect(merged.body.response).toBe('Return within 30 days.');
    });
  });
});
