import WebSocket from 'ws';
import {
  buildAgent,
  foreignAccount,
  advanceClock,
  issueKey,
  platformNow,
  say,
  startChat,
  startConversationsFixture,
  type ConversationsFixture,
} from '../helpers/conversations-fixture';
import { AgentsClient } from '../helpers/agents-fixture';
import { op, operatorKey } from '../helpers/keys-fixtures';
import { request } from '../helpers/test-app';
import type { Json } from '../helpers/json';
import { patient } from '../support/patience';

const TOPICS = [{ name: 'Opening hours', content: 'We open at nine.', queries: ['when do you open'] }];

/** A `/studio/ws` client as a browser opens it: the key offered as a subprotocol, frames recorded. */
class Feed {
  readonly frames: Json[] = [];
  readonly closed: Promise<{ code: number; reason: string }>;

  private constructor(readonly ws: WebSocket) {
    ws.on('message', (data) => this.frames.push(JSON.parse(data.toString())));
    this.closed = new Promise((resolve) =>
      ws.on('close', (code, reason) => resolve({ code, reason: reason.toString() })),
    );
  }

  static open(f: ConversationsFixture, key: string, query: Record<string, string> = {}): Promise<Feed> {
    const ws = new WebSocket(`${f.t.url.replace(/^http/, 'ws')}/studio/ws?${new URLSearchParams(query)}`, [
      'parley',
      `parley.key.${key}`,
    ]);
    const feed = new Feed(ws);
    return new Promise((resolve, reject) => {
      ws.once('open', () => resolve(feed));
      ws.once('unexpected-response', (_req, res) => reject(new Error(`refused ${res.statusCode}`)));
      ws.once('error', reject);
    });
  }

  async next(test: (frame: Json) => boolean, timeoutMs = 5000): Promise<Json> {
    const deadline = Date.now() + patient(timeoutMs);
    for (;;) {
      const found = this.frames.find(test);
      if (found) return found;
      if (Date.now() > deadline) throw new Error(`no matching frame; got ${JSON.stringify(this.frames)}`);
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
  }

  close() {
    this.ws.close();
  }
}

/** A handshake the server should refuse: its status and envelope. */
function refused(
  f: ConversationsFixture,
  query: Record<string, string>,
  protocols: string[] = [],
  headers: Record<string, string> = {},
): Promise<{ status: number; body: Json }> {
  const ws = new WebSocket(`${f.t.url.replace(/^http/, 'ws')}/studio/ws?${new URLSearchParams(query)}`, protocols, {
    headers,
  });
  return new Promise((resolve, reject) => {
    ws.once('open', () => (ws.close(), reject(new Error('handshake was accepted'))));
    ws.once('unexpected-response', (_req, res) => {
      let text = '';
      res.on('data', (chunk: Buffer) => (text += chunk.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text ? JSON.parse(text) : null }));
    });
    ws.once('error', reject);
  });
}

const about = (id: string) => (frame: Json) => frame.conversation?.id === id;

describe('Studio live conversations feed /studio/ws', () => {
  let f: ConversationsFixture;
  let agentId: string;
  let otherAgentId: string;
  let foreign: { accountId: string; key: string };

  beforeAll(async () => {
    f = await startConversationsFixture('Feed Co');
    agentId = await buildAgent(f, 'Front desk', 'Hello from the front desk.', TOPICS);
    otherAgentId = await buildAgent(f, 'Back office', 'Hello from the back office.', TOPICS);
    foreign = await foreignAccount(f);
  });
  afterAll(async () => f.close());

  it('refuses at the handshake with real HTTP statuses, and never takes the key from the URL', async () => {
    expect((await refused(f, {})).status).toBe(401);
    expect((await refused(f, {}, ['parley', 'parley.key.sk_notakey'])).body.error_code).toBe('API_KEY_INVALID');
    const inUrl = await refused(f, { api_key: f.adminKey });
    expect(inUrl.status).toBe(400);
    const key = ['parley', `parley.key.${f.adminKey}`];
    expect((await refused(f, { project_id: 'no good!' }, key)).status).toBe(400);
    expect((await refused(f, { project_id: 'PROJECT-nosuchagent' }, key)).status).toBe(404);
    const foreignProject = await refused(f, { project_id: agentId }, ['parley', `parley.key.${foreign.key}`]);
    expect(foreignProject).toMatchObject({ status: 403, body: { error_code: 'ACCOUNT_FORBIDDEN' } });
    const scoped = await issueKey(f, { agents: [otherAgentId], permissions: ['conversations'] });
    expect((await refused(f, { project_id: agentId }, ['parley', `parley.key.${scoped}`])).status).toBe(403);
  });

  it('echoes only the parley subprotocol, never the key', async () => {
    const feed = await Feed.open(f, f.adminKey);
    expect(feed.ws.protocol).toBe('parley');
    expect(await feed.next((m) => m.type === 'FEED_READY')).toMatchObject({
      account_id: f.accountId,
      project_id: null,
    });
    feed.close();
  });

  it('pushes started and updated notices rendered as the listing would, to the keys that reach them only', async () => {
    const all = await Feed.open(f, f.adminKey);
    const project = await Feed.open(f, f.adminKey, { project_id: agentId });
    const otherProjectOnly = await Feed.open(f, await issueKey(f, { agents: [otherAgentId] }));
    const basic = await Feed.open(f, await issueKey(f, { permissions: ['agents'] }));
    const stranger = await Feed.open(f, foreign.key);
    for (const feed of [all, project, otherProjectOnly, basic, stranger])
      await feed.next((m) => m.type === 'FEED_READY');

    const id = await startChat(f, agentId);
    const started = await all.next(about(id));
    expect(started).toMatchObject({
      type: 'CONVERSATION_STARTED',
      conversation: {
        id,
        project_id: `PROJECT-${agentId.replace(/^PROJECT-/, '')}`,
        in_progress: true,
        environment: 'sandbox',
      },
    });
    expect(started.conversation.turns).toBeUndefined();
    await project.next(about(id));
    // without the conversations permission: the listing's basic fields, nothing more
    expect((await basic.next(about(id))).conversation).toEqual({
      id,
      account_id: f.accountId,
      project_id: started.conversation.project_id,
      started_at: started.conversation.started_at,
    });

    await say(f, agentId, id, 'when do you open');
    expect(
      await all.next((m) => about(id)(m) && m.type === 'CONVERSATION_UPDATED' && m.conversation.num_turns >= 1),
    ).toBeTruthy();

    // the other project's conversation reaches the all-projects socket and its own key, not the one following agentId
    const other = await startChat(f, otherAgentId);
    await all.next(about(other));
    await otherProjectOnly.next(about(other));
    // the foreign account's own conversation reaches it: its socket works, and still it saw nothing of ours
    const elsewhere: ConversationsFixture = {
      ...f,
      api: new AgentsClient(f.t, {
        accountId: foreign.accountId,
        accountSlug: foreign.accountId.replace(/^ws-/, ''),
        key: foreign.key,
        keyId: '',
      }),
    };
    const foreignChat = await startChat(elsewhere, await buildAgent(elsewhere, 'Elsewhere', 'Hi there.', TOPICS));
    await stranger.next(about(foreignChat));
    expect(all.frames.some(about(foreignChat))).toBe(false);
    expect(stranger.frames.some((m) => m.conversation?.id === id || m.conversation?.id === other)).toBe(false);
    expect(project.frames.some(about(other))).toBe(false);
    expect(otherProjectOnly.frames.some(about(id))).toBe(false);
    for (const feed of [all, project, otherProjectOnly, basic, stranger]) feed.close();
  });

  it('closes with 4403 when its key is deleted', async () => {
    const created = await operatorKey(f.t, f.accountId, { name: 'short-lived', permissions: ['conversations'] });
    const feed = await Feed.open(f, created.key);
    await feed.next((m) => m.type === 'FEED_READY');
    const deleted = await request(`${f.t.url}/v1/accounts/${f.accountId}/api-keys/${created.id}`, {
      method: 'DELETE',
      headers: op(f.t),
    });
    expect(deleted.status).toBe(204);
    expect(await feed.closed).toEqual({ code: 4403, reason: 'credential revoked' });
  });

  it('closes with 4401 when its key expires on the platform clock', async () => {
    const soon = new Date((await platformNow(f.t)) + 3_600_000).toISOString();
    const feed = await Feed.open(f, (await operatorKey(f.t, f.accountId, { expiresAt: soon })).key);
    await feed.next((m) => m.type === 'FEED_READY');
    await advanceClock(f.t, 3_601);
    expect(await feed.closed).toEqual({ code: 4401, reason: 'credential expired' });
  });
});
