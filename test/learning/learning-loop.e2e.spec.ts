import { expectOk, type Topic } from '../helpers/agents-fixture';
import {
  buildAgent,
  foreignAccount,
  issueKey,
  say,
  setDataAccess,
  startChat,
  startConversationsFixture,
  type ConversationsFixture,
} from '../helpers/conversations-fixture';
import { withKey } from '../helpers/keys-fixtures';
import type { Json } from '../helpers/json';
import { expectEnvelope, request, type JsonResponse } from '../helpers/test-app';

/**
 * The learning loop (issue 54) over HTTP, against the app on 127.0.0.1 with its SQLite files:
 * "this should have been topic X" adds a user turn's words to a topic on a branch, read
 * server-side; merging the branch then makes the same question cite X. Repeats change nothing,
 * and every refusal is an envelope that leaves the topic as it was.
 */

const MISSED = 'can I get my money back';
const NEW_WORDS = 'do you sell gift cards';
const TOPICS = [
  { name: 'Refunds', content: 'Refunds take 5 days.', queries: ['how do refunds work'] },
  { name: 'Delivery', content: 'Delivery takes 2 days.', queries: ['when will my parcel arrive'] },
];

describe('the learning loop: a turn becomes an example query (issue 54)', () => {
  let f: ConversationsFixture;
  let shop: string;
  let other: string;
  let chat: string;
  let fixes: string;
  let refunds: Topic;

  const learnPath = (branchId: string, agentId = shop) =>
    `/v1/agents/${agentId}/branches/${branchId}/knowledge-base/example-queries`;
  const learn = (body: unknown, branchId = fixes, key = f.adminKey, agentId = shop): Promise<JsonResponse> =>
    request(`${f.t.url}${learnPath(branchId, agentId)}`, { method: 'POST', body, headers: withKey(key) });
  const fromTurn = (turnIndex: number, extra: Json = {}) => ({
    conversationId: chat,
    turnIndex,
    topicId: refunds.id,
    ...extra,
  });
  const refundsOn = async (branchId: string) => (await f.api.topicByName(shop, branchId, 'Refunds'))!;

  beforeAll(async () => {
    f = await startConversationsFixture('Learning Co');
    shop = await buildAgent(f, 'Shop', 'Hello, this is the shop.', TOPICS);
    other = await buildAgent(f, 'Other', 'Hello.', TOPICS);
    for (const agent of [shop, other]) await setDataAccess(f, agent, { response_metrics: [], show_transcripts: true });
    chat = await startChat(f, shop);
    // turn 1: a miss; turn 2: a miss a new topic should answer
    expect((await say(f, shop, chat, MISSED)).metadata.citedTopic).toBe('');
    expect((await say(f, shop, chat, NEW_WORDS)).metadata.citedTopic).toBe('');
    fixes = (await f.api.createBranch(shop, 'fixes/2030-01-01')).branchId;
    refunds = await refundsOn(fixes);
  }, 120_000);
  afterAll(async () => f?.close());

  it("adds the user's words to the topic on the branch, read server-side, and nothing else changes", async () => {
    const r = await learn(fromTurn(1));
    expectOk(r, 200);
    expect(r.body).toEqual({
      added: true,
      query: MISSED,
      branchId: fixes,
      topic: { ...refunds, exampleQueries: { queries: ['how do refunds work', MISSED] } },
    });
    expect(await refundsOn(fixes)).toEqual(r.body.topic);
    // main, and so what is deployed, waits for the merge
    expect((await refundsOn('main')).exampleQueries.queries).toEqual(['how do refunds work']);
  });

  it('is a no-op 200 for words the topic has: the same turn again, or the same words given as `query`', async () => {
    const before = await refundsOn(fixes);
    for (const body of [
      fromTurn(1),
      { query: 'Can I get my MONEY back?', topicId: refunds.id },
      { query: '  can i get my money back ', topicId: refunds.id },
    ]) {
      const r = await learn(body);
      expectOk(r, 200);
      expect(r.body).toMatchObject({ added: false, topic: before });
    }
    expect(await refundsOn(fixes)).toEqual(before);
  });

  it('makes a new topic with the words as its first example query (201); a second one of that name is 409', async () => {
    const newTopic = { name: 'Gift cards', content: 'Yes, from 10 pounds.' };
    const r = await learn({ conversationId: chat, turnIndex: 2, newTopic });
    expectOk(r, 201);
    expect(r.body).toMatchObject({
      added: true,
      query: NEW_WORDS,
      branchId: fixes,
      topic: { name: 'Gift cards', content: 'Yes, from 10 pounds.', exampleQueries: { queries: [NEW_WORDS] } },
    });
    expect(await f.api.topicByName(shop, fixes, 'Gift cards')).toEqual(r.body.topic);
    expectEnvelope(await learn({ conversationId: chat, turnIndex: 2, newTopic }), 409, 'TOPIC_EXISTS');
  });

  it('refuses unknown things with 404 envelopes and leaves the topic as it was', async () => {
    const before = await refundsOn(fixes);
    const otherChat = await startChat(f, other);
    await say(f, other, otherChat, MISSED);
    const cases: Array<[unknown, string, string, number]> = [
      [
        fromTurn(1, { conversationId: 'AS_CHAT_00000000-0000-4000-8000-000000000000' }),
        fixes,
        'CONVERSATION_NOT_FOUND',
        404,
      ],
      // another agent's conversation is not this agent's
      [fromTurn(1, { conversationId: otherChat }), fixes, 'CONVERSATION_NOT_FOUND', 404],
      [fromTurn(3), fixes, 'TURN_NOT_FOUND', 404],
      [fromTurn(1, { topicId: 'topic_nope0000' }), fixes, 'TOPIC_NOT_FOUND', 404],
      [fromTurn(1), 'BRANCH-nope0000', 'BRANCH_NOT_FOUND', 404],
    ];
    for (const [body, branch, code, status] of cases) expectEnvelope(await learn(body, branch), status, code);
    expectEnvelope(await learn(fromTurn(1), fixes, f.adminKey, 'PROJECT-nope0000'), 404, 'AGENT_NOT_FOUND');
    expect(await refundsOn(fixes)).toEqual(before);
  });

  it("refuses a turn without the user's words: the greeting is the agent's (400)", async () => {
    const body = expectEnvelope(await learn(fromTurn(0)), 400, 'NOT_A_USER_TURN');
    expect(body.error).toContain("the agent's greeting");
  });

  it('writes only to an open branch, as every topic edit: main 422, a merged branch 409', async () => {
    const mainTopic = await refundsOn('main');
    expectEnvelope(await learn(fromTurn(1, { topicId: mainTopic.id }), 'main'), 422, 'MAIN_READ_ONLY');
    const done = await f.api.createBranch(shop, 'done');
    await f.api.merge(shop, done.branchId);
    expectEnvelope(await learn(fromTurn(1), done.branchId), 409, 'BRANCH_MERGED');
  });

  it("follows data access: no transcripts or no `conversations`, no turn's words (403); given words still go", async () => {
    await setDataAccess(f, shop, { response_metrics: [], show_transcripts: false });
    try {
      const body = expectEnvelope(await learn(fromTurn(1)), 403, 'TRANSCRIPTS_HIDDEN');
      expect(body.error).toContain('hides transcripts');
    } finally {
      await setDataAccess(f, shop, { response_metrics: [], show_transcripts: true });
    }
    const builder = await issueKey(f, { permissions: ['agents'] });
    expectEnvelope(await learn(fromTurn(1), fixes, builder), 403, 'PERMISSION_DENIED');
    const given = await learn({ query: 'I want my money back', topicId: refunds.id }, fixes, builder);
    expectOk(given, 200);
    expect(given.body.added).toBe(true);
    // reading without `agents` writes nothing
    const reader = await issueKey(f, { permissions: ['conversations'] });
    expectEnvelope(await learn(fromTurn(1), fixes, reader), 403, 'PERMISSION_DENIED');
  });

  it('keeps tenants apart: another account (403), a key scoped to another agent (403)', async () => {
    const foreign = await foreignAccount(f);
    expectEnvelope(await learn(fromTurn(1), fixes, foreign.key), 403, 'ACCOUNT_FORBIDDEN');
    const scoped = await issueKey(f, { agents: [other], permissions: ['agents', 'conversations'] });
    expectEnvelope(await learn(fromTurn(1), fixes, scoped), 403, 'AGENT_FORBIDDEN');
  });

  it('refuses words that were erased (422), never adding `[erased]`', async () => {
    const gone = await startChat(f, shop);
    await say(f, shop, gone, 'where is my order 4471');
    const erase = await request(`${f.t.url}/v3/${f.accountId}/${shop}/conversations/${gone}/personal-data`, {
      method: 'DELETE',
      headers: withKey(f.adminKey),
    });
    expect(erase.status).toBe(204);
    expectEnvelope(await learn(fromTurn(1, { conversationId: gone })), 422, 'TURN_ERASED');
    expect(JSON.stringify(await refundsOn(fixes))).not.toContain('[erased]');
  });

  it('refuses words recorded redacted (422), naming what stands for the personal data', async () => {
    await f.api.shipChange(other, 'private', (branchId) =>
      f.api.call('PUT', `/v1/agents/${other}/branches/${branchId}/settings`, { privacy: { redact: ['email'] } }),
    );
    const privateChat = await startChat(f, other);
    await say(f, other, privateChat, 'my email is zed@example.org, refund me');
    const otherFixes = (await f.api.createBranch(other, 'fixes')).branchId;
    const topic = (await f.api.topicByName(other, otherFixes, 'Refunds'))!;
    const r = await learn(
      { conversationId: privateChat, turnIndex: 1, topicId: topic.id },
      otherFixes,
      f.adminKey,
      other,
    );
    expect(expectEnvelope(r, 422, 'TURN_REDACTED').error).toContain('[EMAIL]');
  });

  it('refuses hostile bodies with 400 envelopes naming the field', async () => {
    const bodies: Array<[unknown, string]> = [
      [{ topicId: refunds.id }, 'conversationId'],
      [{ ...fromTurn(1), query: MISSED }, 'query'],
      [{ conversationId: chat, turnIndex: 1 }, 'topicId'],
      [fromTurn(1, { newTopic: { name: 'X' } }), 'newTopic'],
      [{ conversationId: chat, topicId: refunds.id }, 'turnIndex'],
      [{ query: MISSED, turnIndex: 1, topicId: refunds.id }, 'turnIndex'],
      [fromTurn(-1), 'turnIndex'],
      [fromTurn(1.5), 'turnIndex'],
      [{ ...fromTurn(1), turnIndex: '1' }, 'turnIndex'],
      [fromTurn(1, { conversationId: '../../etc/passwd' }), 'conversationId'],
      [fromTurn(1, { topicId: "x' OR 1=1" }), 'topicId'],
      [{ query: '', topicId: refunds.id }, 'query'],
      [{ query: 'x'.repeat(1001), topicId: refunds.id }, 'query'],
      [{ query: MISSED, newTopic: { name: '' } }, 'newTopic.name'],
      [{ ...fromTurn(1), extra: true }, 'extra'],
      [[fromTurn(1)], 'body'],
    ];
    for (const [body, field] of bodies) {
      const envelope = expectEnvelope(await learn(body), 400, 'VALIDATION_ERROR');
      expect({ field, error: envelope.error }).toEqual({ field, error: expect.stringContaining(field) });
    }
  });

  it('merging the branch makes the question that missed cite the topic in a debug chat', async () => {
    const merged = await f.api.merge(shop, fixes, { deploymentMessage: 'learned from conversations' });
    expect(merged.message).toBe('learned from conversations');
    const again = await startChat(f, shop);
    const answer = await say(f, shop, again, MISSED);
    expect(answer.metadata.citedTopic).toBe('Refunds');
    expect(answer.response).toBe('Refunds take 5 days.');
    expect((await say(f, shop, again, NEW_WORDS)).metadata.citedTopic).toBe('Gift cards');
  });

  it('conflicts at merge as any edit of the topic does, when main changed it meanwhile', async () => {
    const learned = (await f.api.createBranch(shop, 'fixes/2030-01-02')).branchId;
    const edited = (await f.api.createBranch(shop, 'refunds-wording')).branchId;
    const topicId = (await refundsOn(learned)).id;
    expectOk(await learn({ query: 'money back please', topicId }, learned), 200);
    await f.api.editTopic(shop, edited, topicId, { content: 'Refunds take 3 days.' });
    await f.api.merge(shop, edited);
    const refused = expectEnvelope(await f.api.post(`/v1/agents/${shop}/branches/${learned}/merge`, {}), 400);
    expect(refused.error_code).toBe('MERGE_CONFLICT');
    expect(refused.data.conflicts.map((c: Json) => c.path)).toEqual([['topics', 'Refunds']]);
    expect(JSON.stringify(refused.data.conflicts[0].theirs)).toContain('money back please');
    const resolution = { path: ['topics', 'Refunds'], strategy: 'theirs' };
    await f.api.merge(shop, learned, { conflictResolutions: [resolution] });
    expect((await refundsOn('main')).exampleQueries.queries).toContain('money back please');
  });
});
