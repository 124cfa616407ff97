import { rebuildReadModel } from '../helpers/rebuild-read-model';
import fs from 'node:fs';
import path from 'node:path';
import { expectEnvelope, request } from '../helpers/test-app';
import {
  buildAgent,
  eventually,
  issueKey,
  setDataAccess,
  startChat,
  startConversationsFixture,
  type ConversationsFixture,
} from '../helpers/conversations-fixture';
import { projectionsCli } from '../helpers/projections-cli';
import { withKey } from '../helpers/keys-fixtures';
import type { Json } from '../helpers/json';
import { launchChromium } from '../support/chromium';
import { patient } from '../support/patience';
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { buildStudio } = require('../../scripts/build-studio');
const ROOT = path.join(__dirname, '..', '..');

/**
 * Erasure of a conversation's personal data (contract §24), end to end: the API, the audit events
 * and export, the read models (scrubbed in place, and the same after a rebuild), and the bytes of
 * every file under DATA_DIR. A second conversation with the same shape is left alone, so every
 * check here would fail if erasure touched nothing, or everything.
 */

const SAID = 'my name is Quokkabelle Zanzibarova';
const NOTE = 'Fennimore-Tarragon-4471';
const KEPT_SAID = 'my name is Wombatina Kilimanjarova';
const KEPT_NOTE = 'Desmond-Okapi-9034';
/** With READ_MODEL_DB=postgres the read models (and the key store) live in PostgreSQL: DATA_DIR holds the sealed log alone. */
const readModelsInFiles = process.env.READ_MODEL_DB !== 'postgres';

describe('erasure of a conversation (contract §24)', () => {
  let f: ConversationsFixture;
  let agent: string;
  let key: string;
  let erased: string;
  let kept: string;
  const conversationPath = (id: string, suffix = '') => `/v3/${f.accountId}/${agent}/conversations/${id}${suffix}`;
  const get = (p: string) => request(`${f.t.url}${p}`, { headers: withKey(key) });
  const erase = (id: string) =>
    request(`${f.t.url}${conversationPath(id, '/personal-data')}`, { method: 'DELETE', headers: withKey(key) });
  const say = async (id: string, message: string, note: string) => {
    const r = await f.api.post(`/v1/agents/${agent}/debug-chat/${id}`, {
      clientEnv: 'live',
      message,
      metadata: { note },
    });
    expect(r.status).toBe(200);
  };

  /** Files under DATA_DIR whose bytes hold `text` (the log's WAL and read models' included). */
  const filesHolding = (text: string): string[] => {
    const needle = Buffer.from(text);
    const out: string[] = [];
    const walk = (dir: string) => {
      for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
        const full = path.join(dir, entry.name);
        if (entry.isDirectory()) walk(full);
        else if (fs.readFileSync(full).includes(needle)) out.push(path.relative(f.t.dataDir, full));
      }
    };
    walk(f.t.dataDir);
    return out;
  };

  beforeAll(async () => {
    f = await startConversationsFixture('Forgetful Co');
    agent = await buildAgent(
      f,
      'Shop',
      'Hello.',
      [{ name: 'Refunds', content: 'Refunds take 5 days.', queries: ['can I get a refund'] }],
      true,
    );
    await setDataAccess(f, agent, { response_metrics: [], show_transcripts: true });
    key = await issueKey(f, { permissions: ['conversations'] });
    erased = await startChat(f, agent, 'live');
    await say(erased, SAID, NOTE);
    await say(erased, 'can I get a refund', NOTE);
    kept = await startChat(f, agent, 'live');
    await say(kept, KEPT_SAID, KEPT_NOTE);
    await eventually(async () => expect((await get(conversationPath(kept))).body.turns).toHaveLength(2), 5000);
    // before: both conversations' words are on disk (in the read models: the log holds them sealed)
    if (readModelsInFiles) {
      expect(filesHolding('Quokkabelle').length).toBeGreaterThan(0);
      expect(filesHolding('Wombatina').length).toBeGreaterThan(0);
    }
    // the metadata is kept by the log alone, sealed: readers see it opened
    expect(filesHolding(NOTE)).toEqual([]);
    const turns = ((await get(conversationPath(erased, '/events'))).body.events as Json[]).filter(
      (e) => e.type === 'TurnRecorded',
    );
    expect(turns[1].data.inputMetadata).toEqual({ note: NOTE });
    expect((await erase(erased)).status).toBe(204);
  });
  afterAll(async () => f?.close());

  it('shows [erased] for every personal field through the Conversations API, and leaves the rest', async () => {
    const one = await get(`${conversationPath(erased)}?include_turn_metadata=true&include_context_state=true`);
    expect(one.status).toBe(200);
    expect(one.body.turns.map((t: Json) => [t.user_input, t.agent_response])).toEqual([
      ['', '[erased]'],
      ['[erased]', '[erased]'],
      ['[erased]', '[erased]'],
    ]);
    expect(one.body.num_turns).toBe(3);
    expect(JSON.stringify(one.body)).not.toContain('Quokkabelle');
    expect(JSON.stringify(one.body)).not.toContain(NOTE);
    const other = await get(conversationPath(kept));
    expect(other.body.turns[1].user_input).toBe(KEPT_SAID);
  });

  it('finds nothing by the erased words in transcript search', async () => {
    const from = new Date(Date.now() - 86_400_000).toISOString();
    const to = new Date(Date.now() + 86_400_000).toISOString();
    const search = (query: string) =>
      get(
        `/v3/${f.accountId}/${agent}/conversations?query_type=transcript&query=${query}&start_time=${from}&end_time=${to}`,
      );
    expect((await search('Quokkabelle')).body.conversations).toEqual([]);
    expect((await search('Wombatina')).body.conversations.map((c: Json) => c.id)).toEqual([kept]);
  });

  it('records who erased it and when, in the audit events and the export, which show the text erased', async () => {
    const events = (await get(conversationPath(erased, '/events'))).body.events as Json[];
    const erasure = events.filter((e) => e.type === 'ConversationErased');
    expect(erasure).toHaveLength(1);
    expect(erasure[0].actor).toBe(erasure[0].data.erasedBy);
    expect(erasure[0].data.erasedBy).toMatch(/^key_/);
    const turns = events.filter((e) => e.type === 'TurnRecorded');
    expect(turns[1].data.userInput).toBe('[erased]');
    expect(turns[1].data.inputMetadata).toEqual({});
    const exported = await request(`${f.t.url}/v3/${f.accountId}/${agent}/events`, { headers: withKey(key) });
    expect(exported.status).toBe(200);
    const text = typeof exported.body === 'string' ? exported.body : JSON.stringify(exported.body);
    expect(text).toContain('ConversationErased');
    expect(text).not.toContain('Quokkabelle');
    expect(text).toContain('Wombatina');
  });

  it('leaves no file under DATA_DIR holding the erased text, and the other conversation untouched', async () => {
    expect(filesHolding('Quokkabelle')).toEqual([]);
    expect(filesHolding(NOTE)).toEqual([]);
    if (readModelsInFiles) expect(filesHolding('Wombatina').length).toBeGreaterThan(0);
  });

  it('reads the same after a rebuild: the scrubbed rows are what the log now yields', async () => {
    const verify = await projectionsCli(f.t, ['verify', 'conversations']);
    expect(verify.text).toContain('OK: the read model equals a fresh replay');
    expect(verify.text).toContain('conversation_turn: live 5 rows, replay 5; missing 0, extra 0, changed 0');
    expect(verify.code).toBe(0);
    const before = (await get(`${conversationPath(erased)}?include_turn_metadata=true`)).body;
    await rebuildReadModel(f.t, 'conversations');
    expect((await get(`${conversationPath(erased)}?include_turn_metadata=true`)).body).toEqual(before);
  });

  it('answers 204 again without a second record, and 404 for a conversation not of the project', async () => {
    expect((await erase(erased)).status).toBe(204);
    const events = (await get(conversationPath(erased, '/events'))).body.events as Json[];
    expect(events.filter((e) => e.type === 'ConversationErased')).toHaveLength(1);
    expectEnvelope(await erase('AS_CHAT_00000000-0000-0000-0000-000000000000'), 404);
    const other = (await f.api.createAgent('Other', 'Hi.')).agentId;
    const wrong = await request(`${f.t.url}/v3/${f.accountId}/${other}/conversations/${kept}/personal-data`, {
      method: 'DELETE',
      headers: withKey(key),
    });
    expectEnvelope(wrong, 404);
  });

  it("shows Studio's conversation page with the text erased, the other conversation's intact", async () => {
    buildStudio({ root: ROOT, out: path.join(ROOT, 'dist'), silent: true });
    const studioKey = await issueKey(f, { permissions: ['conversations', 'agents'] });
    const browser = await launchChromium();
    try {
      const page = await browser.newPage();
      page.setDefaultTimeout(patient(15_000));
      const session = {
        mode: 'key',
        secret: studioKey,
        accountId: f.accountId,
        permissions: ['conversations', 'agents'],
        label: 'erasure',
      };
      await page.addInitScript(
        `sessionStorage.setItem('parley-studio:session', ${JSON.stringify(JSON.stringify(session))});`,
      );
      const shown = async (id: string, waitFor: string) => {
        await page.goto(`${f.t.url}/studio/agents/${agent}/conversations/${id}`);
        await page.getByText(waitFor).first().waitFor();
        return (await page.locator('body').textContent()) ?? '';
      };
      const erasedPage = await shown(erased, '[erased]');
      expect(erasedPage).not.toContain('Quokkabelle');
      expect(await shown(kept, KEPT_SAID)).toContain(KEPT_SAID);
    } finally {
      await browser.close();
    }
  }, 120_000);

  it('needs the conversations permission', async () => {
    const agentsOnly = await issueKey(f, { permissions: ['agents'] });
    const r = await request(`${f.t.url}${conversationPath(kept, '/personal-data')}`, {
      method: 'DELETE',
      headers: withKey(agentsOnly),
    });
    expect(r.status).toBe(403);
  });
});
