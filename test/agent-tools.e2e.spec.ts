import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { verifySignature } from '../src/webhooks/signature';
import { AgentsClient, createAccount, expectOk } from './helpers/agents-fixture';
import { expectEnvelope, request, startTestApp, type TestApp } from './helpers/test-app';
import { patient } from './support/patience';

/**
 * Agent tools (contract §20) against a real HTTPS receiver on 127.0.0.1, with a certificate made
 * by openssl for this run; the app trusts it through OUTBOUND_TEST_CA_FILE, which only counts
 * with the loopback test allowance (WEBHOOK_ALLOW_HTTP=1).
 */
interface Received {
  path: string;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

type Reply = { status: number; body: string; delayMs?: number };

function certificate(dir: string): { key: string; cert: string; certFile: string } {
  const keyFile = path.join(dir, 'key.pem');
  const certFile = path.join(dir, 'cert.pem');
  execFileSync(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'ec',
      '-pkeyopt',
      'ec_paramgen_curve:prime256v1',
      '-nodes',
      '-keyout',
      keyFile,
      '-out',
      certFile,
      '-days',
      '1',
      '-subj',
      '/CN=127.0.0.1',
      '-addext',
      'subjectAltName=IP:127.0.0.1',
    ],
    { stdio: 'ignore' },
  );
  return { key: fs.readFileSync(keyFile, 'utf8'), cert: fs.readFileSync(certFile, 'utf8'), certFile };
}

function receiver(tlsFiles: { key: string; cert: string }) {
  const received: Received[] = [];
  const replies = new Map<string, Reply>();
  const server = https.createServer(tlsFiles, (req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      received.push({ path: req.url ?? '', headers: req.headers, body });
      const reply = replies.get(req.url ?? '') ?? { status: 404, body: '{}' };
      const send = () => res.writeHead(reply.status, { 'content-type': 'application/json' }).end(reply.body);
      if (reply.delayMs) setTimeout(send, reply.delayMs);
      else send();
    });
  });
  return {
    received,
    reply: (p: string, r: Reply) => replies.set(p, r),
    start: () =>
      new Promise<string>((resolve) =>
        server.listen(0, '127.0.0.1', () => resolve(`https://127.0.0.1:${(server.address() as AddressInfo).port}`)),
      ),
    stop: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

const PARAMETERS = {
  type: 'object',
  properties: { order: { type: 'string' }, quantity: { type: 'integer' } },
  required: ['order'],
};

describe('agent tools (contract §20)', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'parley-tools-'));
  const tls = certificate(dir);
  const tools = receiver(tls);
  let base: string;
  let t: TestApp;
  let client: AgentsClient;
  let agentId: string;
  let secret: string;
  const toolsOf = (branchId: string) => `/v1/agents/${agentId}/branches/${branchId}/tools`;
  const chat = (p: string, body: unknown) => client.post(`/v1/agents/${agentId}/debug-chat${p}`, body);
  const ask = async (message: string) => {
    const { conversationId } = (await chat('', { clientEnv: 'sandbox' })).body;
    const r = await chat(`/${conversationId}`, { clientEnv: 'sandbox', message });
    expect(r.status).toBe(200);
    return { conversationId: conversationId as string, body: r.body };
  };
  /** The longest timeout a tool may have: a tool that should answer is never cut short by a busy machine. */
  const ANSWERS_IN_TIME = 10_000;
  const tool = (name: string, route: string, extra: Record<string, unknown> = {}) => ({
    name,
    description: `${name} tool`,
    url: `${base}${route}`,
    parameters: PARAMETERS,
    ...extra,
  });

  beforeAll(async () => {
    base = await tools.start();
    t = await startTestApp({
      WEBHOOK_ALLOW_HTTP: '1',
      OUTBOUND_TEST_CA_FILE: tls.certFile,
      TOOL_BREAKER_FAILURES: '3',
      TOOL_BREAKER_COOLDOWN_S: '3600',
    });
    client = new AgentsClient(t, await createAccount(t, 'Acme', ['agents', 'keys', 'conversations']));
    agentId = (await client.createAgent('Shop', 'Hello!')).agentId;
    const branch = await client.createBranch(agentId, 'tools');
    const first = await client.post(
      toolsOf(branch.branchId),
      tool('order_status', '/status', { headers: { Authorization: 'Bearer cust-t0ken' }, timeout_ms: ANSWERS_IN_TIME }),
    );
    expectOk(first, 201);
    expect(first.body.headers).toEqual({ Authorization: '***' });
    secret = first.body.signing_secret;
    expect(secret).toMatch(/^tsec_/);
    // only the slow tool is meant to time out: the others answer at once, however busy the machine
    for (const [name, route, timeout] of [
      ['slow_tool', '/slow', 500],
      ['broken_tool', '/broken', ANSWERS_IN_TIME],
      ['garbled_tool', '/garbled', ANSWERS_IN_TIME],
      ['dead_tool', '/dead', ANSWERS_IN_TIME],
    ] as const)
      expectOk(await client.post(toolsOf(branch.branchId), tool(name, route, { timeout_ms: timeout })), 201);
    const topic = (name: string, q: string, actions: string, content: string) =>
      client.addTopic(agentId, branch.branchId, { name, queries: [q], actions, content });
    await client.addTopic(agentId, branch.branchId, {
      name: 'Order status',
      queries: ['where is my order'],
      actions: 'set_state key=order value=A-17\ncall_function name=order_status order=$state.order quantity=2',
      content: 'Your order is $state.functions.order_status.status.',
    });
    await topic('Slow', 'slow lookup please', 'call_function name=slow_tool order=x fallback="Try later."', 'unused');
    await topic('Broken', 'broken lookup please', 'call_function name=broken_tool order=x', 'Broken answer.');
    await topic('Garbled', 'garbled lookup please', 'call_function name=garbled_tool order=x', 'Garbled answer.');
    await topic('Dead', 'dead lookup please', 'call_function name=dead_tool order=x', 'Dead answer.');
    await client.merge(agentId, branch.branchId);
    tools.reply('/status', { status: 200, body: '{"status":"shipped","eta":"Friday"}' });
    tools.reply('/slow', { status: 200, body: '{}', delayMs: patient(2000) });
    tools.reply('/broken', { status: 503, body: '{"error":"down"}' });
    tools.reply('/garbled', { status: 200, body: 'not json' });
    tools.reply('/dead', { status: 500, body: '{}' });
  });
  afterAll(async () => {
    await t?.close();
    await tools.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('calls the tool signed, with typed arguments, and answers from its JSON', async () => {
    const { conversationId, body } = await ask('where is my order');
    expect(body.response).toBe('Your order is shipped.');
    const call = tools.received.filter((r) => r.path === '/status').at(-1)!;
    expect(JSON.parse(call.body)).toEqual({ order: 'A-17', quantity: 2 });
    expect(call.headers.authorization).toBe('Bearer cust-t0ken');
    expect(
      verifySignature(
        secret,
        String(call.headers['x-parley-timestamp']),
        call.body,
        String(call.headers['x-parley-signature']),
      ),
    ).toBe(true);
    expect(body.metadata.state.functions.order_status).toEqual({ status: 'shipped', eta: 'Friday' });
    expect(body.metadata.functionEvents.at(-1)).toMatchObject({ name: 'call_function', status: 'ok' });

    // the audit shows the call: digest, status, latency; never the header's value
    const events = await request(
      `${t.url}/v3/${client.account.accountId}/${agentId}/conversations/${conversationId}/events`,
      {
        headers: { 'x-api-key': client.account.key },
      },
    );
    expect(events.status).toBe(200);
    const called = events.body.events.filter((e: { type: string }) => e.type === 'ToolCalled');
    expect(called).toEqual([
      expect.objectContaining({
        data: expect.objectContaining({
          tool: 'order_status',
          status: 'ok',
          httpStatus: 200,
          requestDigest: expect.stringMatching(/^[0-9a-f]{64}$/),
        }),
      }),
    ]);
    expect(JSON.stringify(events.body)).not.toContain('cust-t0ken');
  });

  it.each([
    ['slow lookup please', 'timeout', 'Try later.'],
    ['broken lookup please', 'http_503', 'Broken answer.'],
    ['garbled lookup please', 'invalid_json', 'Garbled answer.'],
  ])('%s: a function error (%s), never a crash; a fallback answers', async (message, error, response) => {
    const { body } = await ask(message);
    expect(body.response).toBe(response);
    expect(body.metadata.functionEvents.at(-1)).toMatchObject({
      status: 'error',
      error: expect.stringContaining(error),
    });
  });

  it('opens the breaker after consecutive failures: later turns do not call the dead endpoint', async () => {
    for (let i = 0; i < 3; i++) await ask('dead lookup please');
    const before = tools.received.filter((r) => r.path === '/dead').length;
    expect(before).toBe(3);
    const { body } = await ask('dead lookup please');
    expect(body.metadata.functionEvents.at(-1).error).toContain('breaker_open');
    expect(tools.received.filter((r) => r.path === '/dead').length).toBe(before);
  });

  it('refuses hostile definitions at the door, and never shows header values', async () => {
    const branch = await client.createBranch(agentId, 'hostile');
    for (const bad of [
      tool('x', '/a', { url: 'https://10.0.0.1/hook' }),
      tool('x', '/a', { url: 'http://example.com/hook' }),
      tool('x', '/a', { parameters: { type: 'string' } }),
      tool('x', '/a', { parameters: { type: 'object', properties: { a: { type: 'strin' } } } }),
      tool('x', '/a', { timeout_ms: 20000 }),
      tool('x', '/a', { headers: { 'X-Parley-Signature': 'forged' } }),
      tool('echo', '/a'),
    ])
      expectEnvelope(await client.post(toolsOf(branch.branchId), bad), 400);
    expectEnvelope(await client.post(toolsOf('main'), tool('x', '/a')), 422);
    const listed = await client.get(toolsOf('main'));
    expect(listed.body.map((x: { name: string }) => x.name)).toContain('order_status');
    expect(JSON.stringify(listed.body)).not.toContain('cust-t0ken');
    const masked = await client.get(`/v1/agents/${agentId}/tool-secret`);
    expect(masked.body.signing_secret).toBe(`tsec_…${secret.slice(-4)}`);
  });

  it('a merge conflict on a tool is reported (ours/theirs/base) and resolved', async () => {
    const a = await client.createBranch(agentId, 'edit-a');
    const b = await client.createBranch(agentId, 'edit-b');
    const idOf = async (branchId: string) =>
      (await client.get(toolsOf(branchId))).body.find((x: { name: string }) => x.name === 'order_status').id;
    expectOk(await client.patch(`${toolsOf(a.branchId)}/${await idOf(a.branchId)}`, { description: 'from a' }), 204);
    expectOk(await client.patch(`${toolsOf(b.branchId)}/${await idOf(b.branchId)}`, { description: 'from b' }), 204);
    await client.merge(agentId, a.branchId);
    const refused = await client.post(`/v1/agents/${agentId}/branches/${b.branchId}/merge`, {});
    expectEnvelope(refused, 400, 'MERGE_CONFLICT');
    expect(refused.body.data.conflicts).toEqual([
      {
        path: ['tools', 'order_status'],
        ours: expect.objectContaining({ description: 'from a' }),
        theirs: expect.objectContaining({ description: 'from b' }),
        base: expect.objectContaining({ description: 'order_status tool' }),
      },
    ]);
    await client.merge(agentId, b.branchId, {
      conflictResolutions: [{ path: ['tools', 'order_status'], strategy: 'theirs' }],
    });
    const main = (await client.get(toolsOf('main'))).body.find((x: { name: string }) => x.name === 'order_status');
    expect(main.description).toBe('from b');
  });

  it('rotating the secret signs the next call with the new one', async () => {
    const rotated = await client.post(`/v1/agents/${agentId}/rotate-tool-secret`, {});
    expectOk(rotated, 200);
    await ask('where is my order');
    const call = tools.received.filter((r) => r.path === '/status').at(-1)!;
    const check = (s: string) =>
      verifySignature(
        s,
        String(call.headers['x-parley-timestamp']),
        call.body,
        String(call.headers['x-parley-signature']),
      );
    expect(check(rotated.body.signing_secret)).toBe(true);
    expect(check(secret)).toBe(false);
  });

  it('without the loopback allowance, the same tool is refused at call time (address_refused)', async () => {
    const dataDir = t.dataDir;
    await t.app.close();
    const strict = await startTestApp({}, dataDir);
    try {
      const c = new AgentsClient(strict, client.account);
      const { conversationId } = (await c.post(`/v1/agents/${agentId}/debug-chat`, { clientEnv: 'sandbox' })).body;
      const before = tools.received.length;
      const r = await c.post(`/v1/agents/${agentId}/debug-chat/${conversationId}`, {
        clientEnv: 'sandbox',
        message: 'where is my order',
      });
      expect(r.status).toBe(200);
      expect(r.body.metadata.functionEvents.at(-1)).toMatchObject({
        status: 'error',
        error: expect.stringContaining('address_refused'),
      });
      expect(tools.received.length).toBe(before);
    } finally {
      await strict.app.close();
    }
  });
});
