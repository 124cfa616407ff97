import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { REDACT_KINDS } from '../../src/privacy/redact-kinds';
import { AgentsClient, createAccount, expectOk } from '../helpers/agents-fixture';
import { eventually } from '../helpers/conversations-fixture';
import type { Json } from '../helpers/json';
import { expectEnvelope, request, startTestApp } from '../helpers/test-app';
import { patient } from '../support/patience';

/**
 * Issue 49, contract §24: with `privacy.redact` on, the personal data a conversation carries is
 * replaced before anything is appended, so no file under DATA_DIR (the log, its WAL, every read
 * model with its full-text index) ever holds it; with it off, the same scan finds every value.
 */

/** One value of each kind, written as a user would, and the other forms a file could hold it in. */
const VALUES = {
  email: { said: 'zelda.quixote@example.org', forms: ['zelda.quixote@example.org', 'quixote'] },
  phone: { said: '+44 20 7946 0958', forms: ['+44 20 7946 0958', '442079460958', '7946 0958'] },
  card: { said: '4539 1488 0343 6467', forms: ['4539 1488 0343 6467', '4539148803436467'] },
  iban: { said: 'GB33BUKB20201555555555', forms: ['GB33BUKB20201555555555', 'gb33bukb20201555555555', 'BUKB2020'] },
  ssn: { said: '536-22-8147', forms: ['536-22-8147', '536228147'] },
} as const;
const TOKENS = ['[EMAIL]', '[PHONE]', '[CARD]', '[IBAN]', '[SSN]'];
const MESSAGES = [
  `my email is ${VALUES.email.said}`,
  `call me back on ${VALUES.phone.said} please`,
  `the card is ${VALUES.card.said}`,
  `refund to ${VALUES.iban.said}`,
  `my ssn is ${VALUES.ssn.said}`,
  `hand me to a person and copy ${VALUES.email.said}`,
];

/**
 * The hosted model cannot exist here: this OpenAI-compatible server echoes the user's words into
 * the answer and into tool calls (state, a metric, and a handoff when asked), so the clear values
 * reach every field the runtime fills, as a real model that repeats them would make them.
 */
function echoModel() {
  const server = http.createServer((req, res) => {
    let raw = '';
    req.on('data', (c) => (raw += c));
    req.on('end', () => {
      const body = JSON.parse(raw) as { messages: Array<{ role: string; content: string }> };
      const said = body.messages.filter((m) => m.role === 'user').at(-1)?.content ?? '';
      const call = (id: string, name: string, args: Record<string, string>) => ({
        id,
        type: 'function',
        function: { name, arguments: JSON.stringify(args) },
      });
      const calls = [
        call('c1', 'set_state', { key: 'note', value: said }),
        call('c2', 'log_metric', { name: 'contact', value: said }),
      ];
      if (said.startsWith('hand me')) calls.push(call('c3', 'handoff', { destination: 'desk', reason: said }));
      const message = { role: 'assistant', content: `Noted: ${said}`, tool_calls: calls };
      res
        .writeHead(200, { 'content-type': 'application/json' })
        .end(JSON.stringify({ choices: [{ index: 0, message }], usage: { prompt_tokens: 1, completion_tokens: 1 } }));
    });
  });
  return {
    start: () =>
      new Promise<string>((resolve) =>
        server.listen(0, '127.0.0.1', () => resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}`)),
      ),
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** Every file under `dir`, at any depth. */
function filesUnder(dir: string): string[] {
  return fs
    .readdirSync(dir, { withFileTypes: true })
    .flatMap((entry) => (entry.isDirectory() ? filesUnder(path.join(dir, entry.name)) : [path.join(dir, entry.name)]));
}

/** Which forms of which values the raw bytes of any file under `dir` hold: `kind: form in file`. */
function clearValuesUnder(dir: string): string[] {
  const found: string[] = [];
  for (const file of filesUnder(dir)) {
    const bytes = fs.readFileSync(file);
    for (const [kind, { forms }] of Object.entries(VALUES))
      for (const form of forms)
        if (bytes.includes(Buffer.from(form, 'utf8'))) found.push(`${kind}: ${form} in ${path.relative(dir, file)}`);
  }
  return found;
}

interface Run {
  dataDir: string;
  replies: Json[];
  conversation: Json;
  audit: Json[];
}

/**
 * One app on its own DATA_DIR: an agent deployed to sandbox with `privacy.redact` as given, a
 * debug chat carrying a value of each kind in its messages and their metadata, read back through
 * the Conversations API and its audit route; then the app is stopped and its files are left.
 */
async function converse(modelUrl: string, redact: readonly string[]): Promise<Run> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'parley-privacy-'));
  const t = await startTestApp(
    { LLM_BASE_URL: modelUrl, LLM_MODEL: 'echo', LLM_TIMEOUT_MS: String(patient(2000)) },
    dataDir,
  );
  try {
    const account = await createAccount(t, 'Private Co', ['agents', 'keys', 'conversations']);
    const api = new AgentsClient(t, account);
    const agentId = (await api.createAgent('Clinic', 'Hello!')).agentId;
    await api.shipChange(agentId, 'privacy', async (branchId) => {
      await api.addTopic(agentId, branchId, { name: 'Refunds', content: 'Refunds take 5 days.', queries: ['refund'] });
      if (redact.length > 0)
        expectOk(
          await api.call('PUT', `/v1/agents/${agentId}/branches/${branchId}/settings`, { privacy: { redact } }),
          200,
        );
    });
    expectOk(
      await api.call('PUT', `/v1/accounts/${account.accountId}/agents/${agentId}/data-access`, {
        response_metrics: ['contact'],
        show_transcripts: true,
      }),
      200,
    );
    const start = await api.post(`/v1/agents/${agentId}/debug-chat`, { clientEnv: 'sandbox' });
    expectOk(start, 201);
    const id = start.body.conversationId as string;
    const replies: Json[] = [];
    for (const message of MESSAGES) {
      const r = await api.post(`/v1/agents/${agentId}/debug-chat/${id}`, {
        clientEnv: 'sandbox',
        message,
        metadata: { said: message, nested: [{ again: message }] },
      });
      expectOk(r, 200);
      replies.push(r.body);
    }
    const base = `/v3/${account.accountId}/${agentId}/conversations/${id}`;
    // the read models have taken every turn in (and written it to their files) before the app stops
    const conversation = await eventually(async () => {
      const r = await api.get(`${base}?include_turn_metadata=true`);
      expectOk(r, 200);
      expect(r.body).toMatchObject({ num_turns: MESSAGES.length + 1, in_progress: false });
      return r.body;
    }, 10_000);
    const audit = await api.get(`${base}/events`);
    expectOk(audit, 200);
    return { dataDir, replies, conversation, audit: audit.body.events };
  } finally {
    await t.close();
  }
}

describe('privacy.redact: personal data never reaches DATA_DIR (issue 49, contract §24)', () => {
  const model = echoModel();
  let modelUrl: string;
  const dirs: string[] = [];

  beforeAll(async () => {
    modelUrl = await model.start();
  });
  afterAll(async () => {
    for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
    await model.stop();
  });

  it('on: the API and the audit show the tokens, and no file under DATA_DIR holds a clear value', async () => {
    const run = await converse(modelUrl, REDACT_KINDS);
    dirs.push(run.dataDir);

    const recorded = JSON.stringify({ conversation: run.conversation, audit: run.audit });
    for (const token of TOKENS) expect(recorded).toContain(token);
    for (const { forms } of Object.values(VALUES)) for (const form of forms) expect(recorded).not.toContain(form);
    const turns = run.audit.filter((e) => e.type === 'TurnRecorded').map((e) => e.data);
    expect(turns.slice(1).map((turn) => turn.userInput)).toEqual([
      'my email is [EMAIL]',
      'call me back on [PHONE] please',
      'the card is [CARD]',
      'refund to [IBAN]',
      'my ssn is [SSN]',
      'hand me to a person and copy [EMAIL]',
    ]);
    expect(turns[1]).toMatchObject({
      agentResponse: 'Noted: my email is [EMAIL]',
      inputMetadata: { said: 'my email is [EMAIL]', nested: [{ again: 'my email is [EMAIL]' }] },
      functionEvents: [
        expect.objectContaining({ name: 'set_state', args: { key: 'note', value: 'my email is [EMAIL]' } }),
        expect.objectContaining({ name: 'log_metric', args: { name: 'contact', value: 'my email is [EMAIL]' } }),
      ],
    });
    const byType = (type: string) => run.audit.filter((e) => e.type === type).map((e) => e.data);
    expect(byType('ConversationStarted')[0].redact).toEqual([...REDACT_KINDS]);
    expect(byType('StateChanged').at(-1)).toEqual({ changes: { note: 'hand me to a person and copy [EMAIL]' } });
    expect(byType('MetricLogged').map((m) => m.value)).toContain('my ssn is [SSN]');
    expect(byType('HandoffRequested')[0]).toMatchObject({ reason: 'hand me to a person and copy [EMAIL]' });

    // the turn's answer is the runtime's own; what was recorded (the state it reports) is redacted
    expect(run.replies[0].response).toBe(`Noted: ${MESSAGES[0]}`);
    expect(run.replies[4].metadata.state.note).toBe('my ssn is [SSN]');

    const files = filesUnder(run.dataDir);
    expect(files.some((f) => f.endsWith('events.sqlite'))).toBe(true);
    expect(files.some((f) => f.includes(`${path.sep}read-models${path.sep}`))).toBe(true);
    expect(clearValuesUnder(run.dataDir)).toEqual([]);
  });

  it('off: the same conversation leaves every value in the files, so the scan above can fail', async () => {
    const run = await converse(modelUrl, []);
    dirs.push(run.dataDir);
    const found = clearValuesUnder(run.dataDir);
    for (const kind of Object.keys(VALUES)) expect(found.some((f) => f.startsWith(`${kind}:`))).toBe(true);
    // in the log and in the conversations read model both
    expect(found.some((f) => f.includes('events.sqlite'))).toBe(true);
    expect(found.some((f) => f.includes(`read-models${path.sep}conversations`))).toBe(true);
    expect(JSON.stringify(run.audit)).toContain(VALUES.card.said);
  });

  it('refuses an unknown kind, a repeat and other shapes with a 400 envelope naming privacy', async () => {
    const t = await startTestApp();
    try {
      const api = new AgentsClient(t, await createAccount(t));
      const agentId = (await api.createAgent('Clinic', 'Hello!')).agentId;
      const { branchId } = await api.createBranch(agentId, 'privacy');
      const put = (body: unknown) => api.call('PUT', `/v1/agents/${agentId}/branches/${branchId}/settings`, body);
      for (const body of [
        { privacy: { redact: ['email', 'passport'] } },
        { privacy: { redact: ['email', 'email'] } },
        { privacy: { redact: 'email' } },
        { privacy: { redact: [7] } },
        { privacy: { redacted: ['email'] } },
        { privacy: ['email'] },
        { privacy: 'all' },
      ]) {
        const r = await put(body);
        expectEnvelope(r, 400, 'VALIDATION_ERROR');
        expect(JSON.stringify(r.body)).toMatch(/privacy/);
      }
      const ok = await put({ privacy: { redact: ['ssn', 'email'] } });
      expectOk(ok, 200);
      expect(ok.body.settings.privacy).toEqual({ redact: ['email', 'ssn'] });
      expect(ok.body.customized).toEqual(['privacy']);
      const off = await put({ privacy: { redact: [] } });
      expect(off.body.settings.privacy).toEqual({ redact: [] });
      expect(off.body.customized).toEqual([]);
      // nothing was recorded by the refusals: the agent's settings on main are untouched
      const main = await request(`${t.url}/v1/agents/${agentId}/branches/main/settings`, {
        headers: { 'x-api-key': api.account.key },
      });
      expect(main.body.settings.privacy).toEqual({ redact: [] });
    } finally {
      await t.close();
    }
  });
});
