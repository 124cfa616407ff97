import fs from 'node:fs';
import path from 'node:path';
import { KeyAuthenticator } from '../src/platform/auth/key-authenticator';
import { ServerSecret } from '../src/platform/auth/server-secret';
import { expectEnvelope, request, startTestApp, type JsonResponse, type TestApp } from './helpers/test-app';
import { ALL_PERMISSIONS, createAccount, createAgent, inDays, op, operatorKey, withKey } from './helpers/keys-fixtures';
import type { Json } from './helpers/json';

interface Route {
  method: string;
  path: string;
  body?: unknown;
}

/** Everything one account owns, made through its own admin key. */
interface World {
  accountId: string;
  admin: Json;
  agentId: string;
  branchId: string;
  topicId: string;
  deploymentId: string;
  /** strings only this account's data contains */
  secrets: string[];
}

async function buildWorld(t: TestApp, label: string): Promise<World> {
  const accountId = await createAccount(t, `Account ${label}`);
  const admin = await operatorKey(t, accountId, { name: `admin key ${label}` });
  const h = withKey(admin.key);
  const agentId = await createAgent(t, accountId, admin.key, `Agent name ${label}`, `Greeting ${label}`);
  const branch = await request(`${t.url}/v1/agents/${agentId}/branches`, {
    body: { branchName: `branch-${label}` },
    headers: h,
  });
  if (branch.status !== 201) throw new Error(`branch: ${branch.status} ${JSON.stringify(branch.body)}`);
  const branchId = branch.body.branchId;
  const behavior = await request(`${t.url}/v1/agents/${agentId}/branches/${branchId}/behavior`, {
    method: 'PATCH',
    body: { behavior: `Behavior ${label}` },
    headers: h,
  });
  if (behavior.status !== 200) throw new Error(`behavior: ${behavior.status} ${JSON.stringify(behavior.body)}`);
  const topic = await request(`${t.url}/v1/agents/${agentId}/branches/${branchId}/knowledge-base/topics`, {
    body: {
      name: `Topic ${label}`,
      content: `Topic content ${label}`,
      exampleQueries: { queries: [`query ${label}`] },
    },
    headers: h,
  });
  if (topic.status !== 201) throw new Error(`topic: ${topic.status} ${JSON.stringify(topic.body)}`);
  const merged = await request(`${t.url}/v1/agents/${agentId}/branches/${branchId}/merge`, { body: {}, headers: h });
  if (merged.status !== 200) throw new Error(`merge: ${merged.status} ${JSON.stringify(merged.body)}`);
  // a second, open branch with its own topic for the write routes
  const open = await request(`${t.url}/v1/agents/${agentId}/branches`, {
    body: { branchName: `open-${label}` },
    headers: h,
  });
  const openTopic = await request(
    `${t.url}/v1/agents/${agentId}/branches/${open.body.branchId}/knowledge-base/topics`,
    {
      body: { name: `Open topic ${label}`, content: `Open content ${label}`, exampleQueries: { queries: [] } },
      headers: h,
    },
  );
  const deployments = await request(`${t.url}/v1/agents/${agentId}/deployments`, { headers: h });
  const deploymentId = deployments.body.deployments[0].id;
  await request(`${t.url}/v1/accounts/${accountId}/agents/${agentId}/data-access`, {
    method: 'PUT',
    body: { response_metrics: [`metric_${label}`], show_transcripts: true },
    headers: h,
  });
  return {
    accountId,
    admin,
    agentId,
    branchId: open.body.branchId,
    topicId: openTopic.body.id,
    deploymentId,
    secrets: [
      `Agent name ${label}`,
      `Greeting ${label}`,
      `Behavior ${label}`,
      `Topic ${label}`,
      `Topic content ${label}`,
      `Open content ${label}`,
      `admin key ${label}`,
      `metric_${label}`,
      admin.key,
      deploymentId,
    ],
  };
}

/** Every route built so far that touches an account's or an agent's data. */
function routesOf(w: World): Route[] {
  const acc = w.accountId;
  const ag = w.agentId;
  const br = w.branchId;
  return [
    { method: 'GET', path: `/v1/accounts/${acc}/api-keys` },
    { method: 'GET', path: `/v1/accounts/${acc}/api-keys/${w.admin.id}` },
    {
      method: 'POST',
      path: `/v1/accounts/${acc}/api-keys`,
      body: { name: 'intruder', agents: 'all', permissions: ['agents'], expiresAt: inDays(5) },
    },
    { method: 'PATCH', path: `/v1/accounts/${acc}/api-keys/${w.admin.id}`, body: { name: 'hijacked' } },
    { method: 'DELETE', path: `/v1/accounts/${acc}/api-keys/${w.admin.id}` },
    { method: 'GET', path: `/v1/accounts/${acc}/agents/${ag}/data-access` },
    {
      method: 'PUT',
      path: `/v1/accounts/${acc}/agents/${ag}/data-access`,
      body: { response_metrics: [], show_transcripts: false },
    },
    { method: 'GET', path: `/v1/accounts/${acc}/agents` },
    {
      method: 'POST',
      path: `/v1/accounts/${acc}/agents`,
      body: { name: 'intruder agent', responseSettings: { greeting: 'hi' } },
    },
    { method: 'GET', path: `/v1/agents/${ag}` },
    { method: 'GET', path: `/v1/agents/${ag}/branches` },
    { method: 'POST', path: `/v1/agents/${ag}/branches`, body: { branchName: 'intruder-branch' } },
    { method: 'GET', path: `/v1/agents/${ag}/branches/${br}/behavior` },
    { method: 'GET', path: `/v1/agents/${ag}/branches/main/behavior` },
    { method: 'PATCH', path: `/v1/agents/${ag}/branches/${br}/behavior`, body: { behavior: 'hijacked' } },
    { method: 'GET', path: `/v1/agents/${ag}/branches/${br}/knowledge-base/topics` },
    { method: 'GET', path: `/v1/agents/${ag}/branches/main/knowledge-base/topics` },
    {
      method: 'POST',
      path: `/v1/agents/${ag}/branches/${br}/knowledge-base/topics`,
      body: { name: 'intruder', content: 'x', exampleQueries: { queries: [] } },
    },
    {
      method: 'PATCH',
      path: `/v1/agents/${ag}/branches/${br}/knowledge-base/topics/${w.topicId}`,
      body: { content: 'hijacked' },
    },
    { method: 'DELETE', path: `/v1/agents/${ag}/branches/${br}/knowledge-base/topics/${w.topicId}` },
    { method: 'POST', path: `/v1/agents/${ag}/branches/${br}/merge`, body: {} },
    { method: 'DELETE', path: `/v1/agents/${ag}/branches/${br}` },
    { method: 'GET', path: `/v1/agents/${ag}/deployments` },
    { method: 'GET', path: `/v1/agents/${ag}/deployments?environment=sandbox` },
    { method: 'GET', path: `/v1/agents/${ag}/deployments/active` },
    {
      method: 'POST',
      path: `/v1/agents/${ag}/deployments/${w.deploymentId}/promote`,
      body: { targetEnvironment: 'live' },
    },
    { method: 'POST', path: `/v1/agents/${ag}/deployments/${w.deploymentId}/rollback`, body: {} },
    { method: 'DELETE', path: `/v1/agents/${ag}` },
  ];
}

/** Agent-level routes of `routesOf` (those naming the agent). */
const agentRoutes = (w: World) => routesOf(w).filter((r) => r.path.includes(w.agentId));

function call(t: TestApp, route: Route, headers: Record<string, string>): Promise<JsonResponse> {
  return request(`${t.url}${route.path}`, { method: route.method, body: route.body, headers });
}

/** A snapshot of everything an account can see of itself, to prove a refused call changed nothing. */
async function snapshot(t: TestApp, w: World) {
  const h = withKey(w.admin.key);
  const get = async (p: string) => {
    const r = await request(`${t.url}${p}`, { headers: h });
    return { status: r.status, body: r.body };
  };
  return {
    keys: await get(`/v1/accounts/${w.accountId}/api-keys`),
    agents: await get(`/v1/accounts/${w.accountId}/agents`),
    agent: await get(`/v1/agents/${w.agentId}`),
    branches: await get(`/v1/agents/${w.agentId}/branches`),
    behavior: await get(`/v1/agents/${w.agentId}/branches/${w.branchId}/behavior`),
    topics: await get(`/v1/agents/${w.agentId}/branches/${w.branchId}/knowledge-base/topics`),
    deployments: await get(`/v1/agents/${w.agentId}/deployments`),
    active: await get(`/v1/agents/${w.agentId}/deployments/active`),
    dataAccess: await get(`/v1/accounts/${w.accountId}/agents/${w.agentId}/data-access`),
  };
}

describe('authentication and isolation (interface.md "Authentication", contract §4)', () => {
  let t: TestApp;
  let A: World;
  let B: World;
  beforeAll(async () => {
    t = await startTestApp();
    A = await buildWorld(t, 'alpha');
    B = await buildWorld(t, 'bravo');
  });
  afterAll(async () => t.close());

  it('the fixtures are reachable by their own key', async () => {
    for (const route of routesOf(A).filter((r) => r.method === 'GET')) {
      expect({ route: route.path, status: (await call(t, route, withKey(A.admin.key))).status }).toEqual({
        route: route.path,
        status: 200,
      });
    }
  });

  describe('missing or unknown key: 401', () => {
    it.each([
      ['no header', {}],
      ['an empty header', { 'x-api-key': '' }],
      ['an unknown key', withKey('sk_aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa')],
      ['a key that is not sk_-shaped', withKey('hello')],
      ['a very long value', withKey(`sk_${'x'.repeat(8000)}`)],
      ['the masked form of a real key', {}],
      ['a real key with a character changed', {}],
      ['a real key with trailing junk', {}],
      ['the operator token as a key', {}],
    ])('%s', async (what, given) => {
      let headers: Record<string, string> = given as Record<string, string>;
      if (what === 'the masked form of a real key') headers = withKey(`sk_...${A.admin.key.slice(-4)}`);
      if (what === 'a real key with a character changed')
        headers = withKey(A.admin.key.slice(0, -1) + (A.admin.key.endsWith('a') ? 'b' : 'a'));
      if (what === 'a real key with trailing junk') headers = withKey(`${A.admin.key}x`);
      if (what === 'the operator token as a key') headers = withKey(t.operatorToken);
      for (const route of routesOf(A)) {
        const r = await call(t, route, headers);
        expect({ route: `${route.method} ${route.path}`, status: r.status }).toEqual({
          route: `${route.method} ${route.path}`,
          status: 401,
        });
        expectEnvelope(r, 401);
        for (const secret of A.secrets) expect(JSON.stringify(r.body)).not.toContain(secret);
      }
    });

    it('authentication comes before validation: no key and a bad body is 401, not 400', async () => {
      expectEnvelope(await request(`${t.url}/v1/accounts/${A.accountId}/api-keys`, { body: { nonsense: true } }), 401);
      expectEnvelope(await request(`${t.url}/v1/accounts/${A.accountId}/agents`, { body: { name: 42 } }), 401);
      expectEnvelope(
        await request(`${t.url}/v1/accounts/${A.accountId}/agents/${A.agentId}/data-access`, {
          method: 'PUT',
          body: { show_transcripts: 'maybe' },
        }),
        401,
      );
    });
  });

  describe("a key of another account: 403 (or 404) on every route, without the other account's data", () => {
    it.each([
      ['ws-<id>', (id: string) => id],
      ['ACCOUNT-<id>', (id: string) => id.replace(/^ws-/, 'ACCOUNT-')],
      ['bare id', (id: string) => id.replace(/^ws-/, '')],
    ])("A's key on B's resources (account form %s)", async (_form, form) => {
      const before = await snapshot(t, B);
      const routes = routesOf({ ...B, accountId: form(B.accountId) });
      for (const route of routes) {
        const r = await call(t, route, withKey(A.admin.key));
        expect({
          route: `${route.method} ${route.path}`,
          status: [403, 404].includes(r.status) ? 'refused' : r.status,
        }).toEqual({ route: `${route.method} ${route.path}`, status: 'refused' });
        expectEnvelope(r, r.status);
        const text = JSON.stringify(r.body);
        for (const secret of B.secrets) expect(text).not.toContain(secret);
      }
      expect(await snapshot(t, B)).toEqual(before);
    });

    it("B's key on A's resources: the same, both ways", async () => {
      const before = await snapshot(t, A);
      for (const route of routesOf(A)) {
        const r = await call(t, route, withKey(B.admin.key));
        expect([403, 404]).toContain(r.status);
        for (const secret of A.secrets) expect(JSON.stringify(r.body)).not.toContain(secret);
      }
      expect(await snapshot(t, A)).toEqual(before);
    });

    it("an account path of A's own with B's agent in it: refused", async () => {
      const r = await request(`${t.url}/v1/accounts/${A.accountId}/agents/${B.agentId}/data-access`, {
        headers: withKey(A.admin.key),
      });
      expect([403, 404]).toContain(r.status);
      for (const secret of B.secrets) expect(JSON.stringify(r.body)).not.toContain(secret);
    });

    it("the account-level routes for B's account answer 403", async () => {
      for (const route of routesOf(B).filter((r) => r.path.startsWith(`/v1/accounts/${B.accountId}/`))) {
        expectEnvelope(await call(t, route, withKey(A.admin.key)), 403);
      }
    });

    it("A's agent list never shows B's agents", async () => {
      const r = await request(`${t.url}/v1/accounts/${A.accountId}/agents`, { headers: withKey(A.admin.key) });
      expect(r.status).toBe(200);
      expect(JSON.stringify(r.body)).not.toContain(B.agentId);
    });
  });

  describe('agent scope', () => {
    let second: string;
    let scoped: Json;
    beforeAll(async () => {
      second = await createAgent(t, A.accountId, A.admin.key, 'Second agent of alpha', 'Second greeting');
      scoped = await operatorKey(t, A.accountId, {
        name: 'scoped to A',
        agents: [A.agentId],
        permissions: [...ALL_PERMISSIONS],
      });
    });

    it('a key scoped to agent A reaches A', async () => {
      for (const route of agentRoutes(A).filter((r) => r.method === 'GET')) {
        expect({ route: route.path, status: (await call(t, route, withKey(scoped.key))).status }).toEqual({
          route: route.path,
          status: 200,
        });
      }
    });

    it('a key scoped to agent A gets 403 on agent B of the same account, on every agent route', async () => {
      const w: World = { ...A, agentId: second };
      for (const route of agentRoutes(w)) {
        const r = await call(t, route, withKey(scoped.key));
        expect({ route: `${route.method} ${route.path}`, status: r.status }).toEqual({
          route: `${route.method} ${route.path}`,
          status: 403,
        });
        expectEnvelope(r, 403);
        expect(JSON.stringify(r.body)).not.toContain('Second agent of alpha');
      }
      // the agent is still there
      expect((await request(`${t.url}/v1/agents/${second}`, { headers: withKey(A.admin.key) })).status).toBe(200);
    });

    it("a key scoped to agent A does not see agent B's data in the account's agent list (403, or B left out)", async () => {
      const r = await request(`${t.url}/v1/accounts/${A.accountId}/agents`, { headers: withKey(scoped.key) });
      expect([200, 403]).toContain(r.status);
      if (r.status === 200) {
        expect(JSON.stringify(r.body)).toContain(A.agentId);
        expect(JSON.stringify(r.body)).not.toContain(second);
        expect(JSON.stringify(r.body)).not.toContain('Second agent of alpha');
      }
    });

    it('a key scoped to agent A is still refused on another account', async () => {
      for (const route of agentRoutes(B))
        expect([403, 404]).toContain((await call(t, route, withKey(scoped.key))).status);
    });
  });

  describe('permissions', () => {
    it('a key without `agents` gets 403 on every agents route', async () => {
      const noAgents = await operatorKey(t, A.accountId, {
        permissions: ALL_PERMISSIONS.filter((p) => p !== 'agents'),
      });
      const agentsRoutes = routesOf(A).filter((r) => !r.path.includes('/api-keys'));
      const before = await snapshot(t, A);
      for (const route of agentsRoutes) {
        const r = await call(t, route, withKey(noAgents.key));
        expect({ route: `${route.method} ${route.path}`, status: r.status }).toEqual({
          route: `${route.method} ${route.path}`,
          status: 403,
        });
        expectEnvelope(r, 403);
      }
      expect(await snapshot(t, A)).toEqual(before);
    });

    it.each(['conversations', 'handoff', 'external_events', 'alerts', 'outbound_calling', 'sms', 'desk'])(
      'a key holding only %s cannot use the Agents API or manage keys',
      async (permission) => {
        const k = await operatorKey(t, A.accountId, { permissions: [permission] });
        expectEnvelope(await request(`${t.url}/v1/accounts/${A.accountId}/agents`, { headers: withKey(k.key) }), 403);
        expectEnvelope(await request(`${t.url}/v1/agents/${A.agentId}`, { headers: withKey(k.key) }), 403);
        expectEnvelope(await request(`${t.url}/v1/accounts/${A.accountId}/api-keys`, { headers: withKey(k.key) }), 403);
      },
    );
  });

  describe('credential storage and comparison', () => {
    it('only a digest of the key is stored: the value appears in no file of the data directory', async () => {
      const k = await operatorKey(t, A.accountId, { name: 'storage probe' });
      // use it so that any cache or log would see it
      expect((await request(`${t.url}/v1/accounts/${A.accountId}/agents`, { headers: withKey(k.key) })).status).toBe(
        200,
      );
      const digest = t.app.get(ServerSecret).digest(k.key);
      const files: string[] = [];
      const walk = (dir: string) => {
        for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
          const p = path.join(dir, entry.name);
          if (entry.isDirectory()) walk(p);
          else files.push(p);
        }
      };
      walk(t.dataDir);
      let digestSeen = false;
      for (const file of files) {
        const content = fs.readFileSync(file);
        expect({ file, holdsValue: content.includes(k.key) || content.includes(k.key.slice(3)) }).toEqual({
          file,
          holdsValue: false,
        });
        if (content.includes(digest)) digestSeen = true;
      }
      expect(digestSeen).toBe(true);
    });

    it('keys sharing a long prefix have digests sharing none (lookups go by digest)', () => {
      const secret = t.app.get(ServerSecret);
      const real: string = A.admin.key;
      const near = real.slice(0, -1) + (real.endsWith('a') ? 'b' : 'a');
      const a = secret.digest(real);
      const b = secret.digest(near);
      let common = 0;
      while (common < a.length && a[common] === b[common]) common++;
      expect(common).toBeLessThan(6);
    });

    it("a wrong key's verification time does not depend on how much of it matched", async () => {
      const auth = t.app.get(KeyAuthenticator);
      const real: string = A.admin.key;
      const body = real.slice(3);
      const flip = (c: string) => (c === 'a' ? 'b' : 'a');
      // shares everything but the last character
      const nearly = `sk_${body.slice(0, -1)}${flip(body.slice(-1))}`;
      // shares nothing but the prefix, same length
      const nothing = `sk_${[...body].map((c) => (c === 'z' ? 'y' : 'z')).join('')}`;
      expect(nearly.length).toBe(real.length);
      expect(nothing.length).toBe(real.length);
      // awaited: on PostgreSQL a lookup answers later (on SQLite this awaits a plain value)
      const attempt = async (value: string) => {
        try {
          await auth.authenticate(value);
        } catch {
          return;
        }
        throw new Error('a wrong key was accepted');
      };
      const batch = async (value: string) => {
        const start = process.hrtime.bigint();
        for (let i = 0; i < 50; i++) await attempt(value);
        return Number(process.hrtime.bigint() - start);
      };
      // warm up
      for (let i = 0; i < 5; i++) {
        await batch(nearly);
        await batch(nothing);
      }
      // One round: 40 back-to-back pairs in alternating order, each pair's ratio, the median of
      // those. Pairing cancels the drift of a shared CI machine (other Jest workers come and go);
      // a leak (an early-exit comparison on the value) shows in every round, noise does not, so a
      // round that lands inside the bound settles it and three outside it fail.
      const round = async () => {
        const ratios: number[] = [];
        for (let i = 0; i < 40; i++) {
          let near: number;
          let far: number;
          if (i % 2) {
            near = await batch(nearly);
            far = await batch(nothing);
          } else {
            far = await batch(nothing);
            near = await batch(nearly);
          }
          ratios.push(near / far);
        }
        return [...ratios].sort((x, y) => x - y)[Math.floor(ratios.length / 2)];
      };
      const rounds: number[] = [];
      for (let r = 0; r < 3; r++) {
        rounds.push(await round());
        if (rounds[r] > 1 / 1.5 && rounds[r] < 1.5) break;
      }
      const ratio = rounds[rounds.length - 1];
      expect(ratio).toBeGreaterThan(1 / 1.5);
      expect(ratio).toBeLessThan(1.5);
      // and the real key still passes
      expect((await auth.authenticate(real)).id).toBe(A.admin.id);
    });
  });
});

describe('rate limiting per key (RATE_LIMIT_PER_KEY)', () => {
  let t: TestApp;
  beforeAll(async () => {
    // 1 a second, bursts of 2: on the wall clock, so low enough that a slow machine's 30 requests cannot all refill
    t = await startTestApp({ RATE_LIMIT_PER_KEY: '1' });
  });
  afterAll(async () => t.close());

  it('30 quick requests with one key: some answer 429 with Retry-After and the error envelope; another key is unaffected', async () => {
    const accountId = await createAccount(t, 'Busy');
    const busy = await operatorKey(t, accountId, { permissions: ['agents'] });
    const calm = await operatorKey(t, accountId, { permissions: ['agents'] });
    const url = `${t.url}/v1/accounts/${accountId}/agents`;
    const responses = await Promise.all(Array.from({ length: 30 }, () => request(url, { headers: withKey(busy.key) })));
    const statuses = responses.map((r) => r.status);
    expect(statuses.every((s) => s === 200 || s === 429)).toBe(true);
    const limited = responses.filter((r) => r.status === 429);
    expect(limited.length).toBeGreaterThan(0);
    expect(statuses.filter((s) => s === 200).length).toBeGreaterThan(0);
    for (const r of limited) {
      expectEnvelope(r, 429);
      const retryAfter = r.headers.get('retry-after');
      expect(retryAfter).toMatch(/^\d+$/);
      expect(Number(retryAfter)).toBeGreaterThanOrEqual(1);
    }
    expect((await request(url, { headers: withKey(calm.key) })).status).toBe(200);
    // the operator is not an API key and is not throttled by it
    expect((await request(`${t.url}/admin/v1/accounts`, { headers: op(t) })).status).toBe(200);
  });
});
