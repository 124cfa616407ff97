import { expectEnvelope, request, startTestApp, type TestApp } from './helpers/test-app';
import {
  advanceClock,
  createAccount,
  createAgent,
  DAY_MS,
  errorText,
  keyList,
  op,
  operatorKey,
  platformNow,
  withKey,
} from './helpers/keys-fixtures';
import type { Json } from './helpers/json';

const ISO_MS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const MASK = 'sk_…';

/** Bits of randomness a credential's body can hold, judged from its alphabet. */
function entropyBits(body: string): number {
  const alphabet = /^[0-9a-f]+$/.test(body)
    ? 16
    : /^[a-z2-7]+$/.test(body)
      ? 32
      : /^[A-Za-z0-9]+$/.test(body)
        ? 62
        : 64;
  return body.length * Math.log2(alphabet);
}

/** Contract §4: the API Keys tab as an API. One app on the test clock for the whole file. */
describe('API keys (contract §4)', () => {
  let t: TestApp;
  let accountId: string;
  let otherAccountId: string;
  /** a key with every permission, `keys` among them */
  let admin: Json;
  let agentA: string;
  let agentB: string;
  let foreignAgent: string;
  let now: () => Promise<number>;
  const expiry = async (days: number) => new Date((await now()) + days * DAY_MS).toISOString();
  const keysUrl = (account = accountId) => `${t.url}/v1/accounts/${account}/api-keys`;
  const create = async (body: Record<string, unknown>, key: string = admin.key, account = accountId) =>
    request(keysUrl(account), {
      body: { name: 'k', agents: 'all', permissions: ['agents'], expiresAt: await expiry(30), ...body },
      headers: withKey(key),
    });

  beforeAll(async () => {
    t = await startTestApp({ PARLEY_TEST_CLOCK: '1' });
    now = () => platformNow(t);
    accountId = await createAccount(t, 'Keys Inc');
    otherAccountId = await createAccount(t, 'Elsewhere');
    admin = await operatorKey(t, accountId, { name: 'admin', expiresAt: await expiry(300) });
    agentA = await createAgent(t, accountId, admin.key, 'Agent A');
    agentB = await createAgent(t, accountId, admin.key, 'Agent B');
    const foreignAdmin = await operatorKey(t, otherAccountId, { expiresAt: await expiry(300) });
    foreignAgent = await createAgent(t, otherAccountId, foreignAdmin.key, 'Foreign');
  });
  afterAll(async () => t.close());

  describe('create', () => {
    it('a key with `keys` creates a key: 201 {id: key_…, name, agents, permissions, expiresAt, createdAt, key}', async () => {
      const expiresAt = await expiry(90);
      const r = await request(keysUrl(), {
        body: { name: 'ci pipeline', agents: 'all', permissions: ['agents', 'alerts'], expiresAt },
        headers: withKey(admin.key),
      });
      expect(r.status).toBe(201);
      expect(Object.keys(r.body).sort()).toEqual([
        'agents',
        'createdAt',
        'expiresAt',
        'id',
        'key',
        'name',
        'permissions',
      ]);
      expect(r.body).toMatchObject({ name: 'ci pipeline', agents: 'all', expiresAt });
      expect([...r.body.permissions].sort()).toEqual(['agents', 'alerts']);
      expect(r.body.id).toMatch(/^key_[A-Za-z0-9_-]+$/);
      expect(r.body.createdAt).toMatch(ISO_MS);
      expect(r.body.expiresAt).toMatch(ISO_MS);
      // the full value, this once
      expect(r.body.key).toMatch(/^sk_[A-Za-z0-9_-]+$/);
      expect(r.body.key).not.toContain('…');
    });

    it('the value carries at least 160 bits of randomness, and every key is different', async () => {
      const values = new Set<string>();
      for (let i = 0; i < 5; i++) {
        const r = await create({ name: `k${i}` });
        expect(r.status).toBe(201);
        const body = r.body.key.slice(3);
        expect(entropyBits(body)).toBeGreaterThanOrEqual(160);
        values.add(r.body.key);
      }
      expect(values.size).toBe(5);
    });

    it('the operator creates keys on the same route', async () => {
      const r = await request(keysUrl(), {
        body: { name: 'by operator', agents: 'all', permissions: ['conversations'], expiresAt: await expiry(10) },
        headers: op(t),
      });
      expect(r.status).toBe(201);
      expect(r.body.key).toMatch(/^sk_/);
    });

    it('the new key works at once', async () => {
      const r = await create({ permissions: ['agents'] });
      const list = await request(`${t.url}/v1/accounts/${accountId}/agents`, { headers: withKey(r.body.key) });
      expect(list.status).toBe(200);
    });

    it('a key scoped to chosen agents shows them prefixed, whatever form was sent', async () => {
      const r = await create({ agents: [agentA, agentB.replace(/^PROJECT-/, '')] });
      expect(r.status).toBe(201);
      expect([...r.body.agents].sort()).toEqual([agentA, agentB].sort());
    });

    it('an expiresAt with an offset is answered in UTC with milliseconds', async () => {
      const target = new Date((await now()) + 40 * DAY_MS);
      target.setUTCMilliseconds(0);
      const local = new Date(target.getTime() + 2 * 3600_000).toISOString().replace('.000Z', '+02:00');
      const r = await create({ expiresAt: local });
      expect(r.status).toBe(201);
      expect(r.body.expiresAt).toBe(target.toISOString());
    });

    it('there is no limit on the number of keys', async () => {
      const results = await Promise.all(Array.from({ length: 25 }, (_, i) => create({ name: `bulk ${i}` })));
      expect(results.map((r) => r.status)).toEqual(Array(25).fill(201));
    });

    it('the key value is never stored in clear: GET never shows it again', async () => {
      const r = await create({ name: 'secret holder' });
      const list = await request(keysUrl(), { headers: withKey(admin.key) });
      const one = await request(`${keysUrl()}/${r.body.id}`, { headers: withKey(admin.key) });
      expect(JSON.stringify(list.body)).not.toContain(r.body.key);
      expect(JSON.stringify(one.body)).not.toContain(r.body.key);
    });
  });

  describe('read', () => {
    it('GET one shows the key masked (sk_… + last 4)', async () => {
      const created = await create({ name: 'masked' });
      const r = await request(`${keysUrl()}/${created.body.id}`, { headers: withKey(admin.key) });
      expect(r.status).toBe(200);
      const { key, ...rest } = created.body;
      expect(r.body).toEqual({ ...rest, key: `${MASK}${key.slice(-4)}` });
    });

    it('GET list shows every live key of the account, masked', async () => {
      const created = await create({ name: 'listed' });
      const r = await request(keysUrl(), { headers: withKey(admin.key) });
      expect(r.status).toBe(200);
      const keys = keyList(r.body);
      const mine = keys.find((k) => k.id === created.body.id);
      expect(mine).toMatchObject({ id: created.body.id, name: 'listed', key: `${MASK}${created.body.key.slice(-4)}` });
      for (const k of keys) {
        expect(k.key).toMatch(/^sk_….{4}$/);
        expect(k.id).toMatch(/^key_/);
      }
      expect(keys.map((k) => k.id)).toContain(admin.id);
    });

    it("lists only this account's keys", async () => {
      const foreign = await operatorKey(t, otherAccountId, { name: 'foreign key name' });
      const r = await request(keysUrl(), { headers: withKey(admin.key) });
      expect(keyList(r.body).map((k) => k.id)).not.toContain(foreign.id);
      expect(JSON.stringify(r.body)).not.toContain('foreign key name');
    });

    it('an unknown key id: 404', async () => {
      expectEnvelope(await request(`${keysUrl()}/key_doesnotexist`, { headers: withKey(admin.key) }), 404);
    });

    it("another account's key id through this account: 404", async () => {
      const foreign = await operatorKey(t, otherAccountId);
      expectEnvelope(await request(`${keysUrl()}/${foreign.id}`, { headers: withKey(admin.key) }), 404);
      expectEnvelope(
        await request(`${keysUrl()}/${foreign.id}`, {
          method: 'PATCH',
          body: { name: 'x' },
          headers: withKey(admin.key),
        }),
        404,
      );
      expectEnvelope(
        await request(`${keysUrl()}/${foreign.id}`, { method: 'DELETE', headers: withKey(admin.key) }),
        404,
      );
      // and it still works
      expect((await request(`${keysUrl(otherAccountId)}`, { headers: withKey(foreign.key) })).status).toBe(200);
    });
  });

  describe('update', () => {
    it('PATCH name: 200 with the new name, and GET shows it', async () => {
      const created = await create({ name: 'old name' });
      const r = await request(`${keysUrl()}/${created.body.id}`, {
        method: 'PATCH',
        body: { name: 'new name' },
        headers: withKey(admin.key),
      });
      expect(r.status).toBe(200);
      expect(r.body).toMatchObject({
        id: created.body.id,
        name: 'new name',
        key: `${MASK}${created.body.key.slice(-4)}`,
      });
      const again = await request(`${keysUrl()}/${created.body.id}`, { headers: withKey(admin.key) });
      expect(again.body.name).toBe('new name');
      // renaming does not change what the key can do
      expect(
        (await request(`${t.url}/v1/accounts/${accountId}/agents`, { headers: withKey(created.body.key) })).status,
      ).toBe(200);
    });

    it.each([
      ['agents', () => [agentA]],
      ['agents', () => 'all'],
      ['permissions', () => ['agents', 'conversations']],
      ['expiresAt', () => new Date(Date.now() + 100 * DAY_MS).toISOString()],
    ])('PATCH %s: 422 naming it, and nothing changes', async (field, value) => {
      const created = await create({ name: 'fixed', agents: [agentB], permissions: ['agents'] });
      const r = await request(`${keysUrl()}/${created.body.id}`, {
        method: 'PATCH',
        body: { [field]: value() },
        headers: withKey(admin.key),
      });
      expect(errorText(expectEnvelope(r, 422))).toContain(field);
      const again = await request(`${keysUrl()}/${created.body.id}`, { headers: withKey(admin.key) });
      const { key: _key, ...rest } = created.body;
      expect(again.body).toMatchObject(rest);
    });

    it('PATCH name together with agents: 422 and the name is not changed either', async () => {
      const created = await create({ name: 'together' });
      const r = await request(`${keysUrl()}/${created.body.id}`, {
        method: 'PATCH',
        body: { name: 'renamed', agents: 'all' },
        headers: withKey(admin.key),
      });
      expectEnvelope(r, 422);
      expect((await request(`${keysUrl()}/${created.body.id}`, { headers: withKey(admin.key) })).body.name).toBe(
        'together',
      );
    });

    it.each([
      ['an empty name', { name: '' }, 'name'],
      ['a name of the wrong type', { name: 7 }, 'name'],
      ['an oversized name', { name: 'x'.repeat(10_000) }, 'name'],
      ['an unknown field', { name: 'ok', colour: 'blue' }, 'colour'],
    ])('PATCH with %s: 400 naming the field', async (_what, body, field) => {
      const created = await create({ name: 'patch me' });
      const r = await request(`${keysUrl()}/${created.body.id}`, {
        method: 'PATCH',
        body,
        headers: withKey(admin.key),
      });
      expect(errorText(expectEnvelope(r, 400))).toContain(field);
    });

    it('PATCH with an empty body: 200 and nothing changes', async () => {
      const created = await create({ name: 'untouched' });
      const r = await request(`${keysUrl()}/${created.body.id}`, {
        method: 'PATCH',
        body: {},
        headers: withKey(admin.key),
      });
      expect(r.status).toBe(200);
      expect(r.body.name).toBe('untouched');
    });

    it('PATCH an unknown key: 404', async () => {
      expectEnvelope(
        await request(`${keysUrl()}/key_doesnotexist`, {
          method: 'PATCH',
          body: { name: 'x' },
          headers: withKey(admin.key),
        }),
        404,
      );
    });
  });

  describe('delete', () => {
    it('DELETE: 204, and the key answers 401 at once on every route', async () => {
      const victim = (await create({ name: 'victim', permissions: ['agents', 'keys'] })).body;
      const routes = [
        `${keysUrl()}`,
        `${keysUrl()}/${victim.id}`,
        `${t.url}/v1/accounts/${accountId}/agents`,
        `${t.url}/v1/agents/${agentA}`,
        `${t.url}/v1/agents/${agentA}/branches`,
        `${t.url}/v1/agents/${agentA}/deployments`,
        `${t.url}/v1/accounts/${accountId}/agents/${agentA}/data-access`,
      ];
      // warm any cache first
      for (const url of routes) expect((await request(url, { headers: withKey(victim.key) })).status).toBe(200);
      const d = await request(`${keysUrl()}/${victim.id}`, { method: 'DELETE', headers: withKey(admin.key) });
      expect(d.status).toBe(204);
      expect(d.body).toBeNull();
      for (const url of routes) expectEnvelope(await request(url, { headers: withKey(victim.key) }), 401);
      expectEnvelope(
        await request(`${t.url}/v1/accounts/${accountId}/agents`, {
          body: { name: 'x', responseSettings: { greeting: 'hi' } },
          headers: withKey(victim.key),
        }),
        401,
      );
    });

    it('a deleted key disappears from the list and answers 404 afterwards', async () => {
      const victim = (await create({ name: 'gone' })).body;
      expect(
        (await request(`${keysUrl()}/${victim.id}`, { method: 'DELETE', headers: withKey(admin.key) })).status,
      ).toBe(204);
      const list = await request(keysUrl(), { headers: withKey(admin.key) });
      expect(keyList(list.body).map((k) => k.id)).not.toContain(victim.id);
      expectEnvelope(await request(`${keysUrl()}/${victim.id}`, { headers: withKey(admin.key) }), 404);
      expectEnvelope(
        await request(`${keysUrl()}/${victim.id}`, { method: 'DELETE', headers: withKey(admin.key) }),
        404,
      );
      expectEnvelope(
        await request(`${keysUrl()}/${victim.id}`, {
          method: 'PATCH',
          body: { name: 'zombie' },
          headers: withKey(admin.key),
        }),
        404,
      );
    });

    it('a key can delete itself, and is then unusable', async () => {
      const self = (await create({ name: 'self', permissions: ['keys'] })).body;
      expect((await request(`${keysUrl()}/${self.id}`, { method: 'DELETE', headers: withKey(self.key) })).status).toBe(
        204,
      );
      expectEnvelope(await request(keysUrl(), { headers: withKey(self.key) }), 401);
    });

    it('the operator can delete a key', async () => {
      const victim = (await create({ name: 'op victim' })).body;
      expect((await request(`${keysUrl()}/${victim.id}`, { method: 'DELETE', headers: op(t) })).status).toBe(204);
      expectEnvelope(await request(`${t.url}/v1/accounts/${accountId}/agents`, { headers: withKey(victim.key) }), 401);
    });

    it('DELETE an unknown key: 404', async () => {
      expectEnvelope(
        await request(`${keysUrl()}/key_doesnotexist`, { method: 'DELETE', headers: withKey(admin.key) }),
        404,
      );
    });

    it('keys are independent: deleting one leaves the others working', async () => {
      const a = (await create({ name: 'a' })).body;
      const b = (await create({ name: 'b' })).body;
      await request(`${keysUrl()}/${a.id}`, { method: 'DELETE', headers: withKey(admin.key) });
      expect((await request(`${t.url}/v1/accounts/${accountId}/agents`, { headers: withKey(b.key) })).status).toBe(200);
    });
  });

  describe('rotation (create new, then delete old)', () => {
    it('both keys work in between; after the delete only the new one does', async () => {
      const old = (await create({ name: 'v1', permissions: ['agents'] })).body;
      const fresh = (await create({ name: 'v2', permissions: ['agents'] })).body;
      const url = `${t.url}/v1/accounts/${accountId}/agents`;
      expect((await request(url, { headers: withKey(old.key) })).status).toBe(200);
      expect((await request(url, { headers: withKey(fresh.key) })).status).toBe(200);
      expect((await request(`${keysUrl()}/${old.id}`, { method: 'DELETE', headers: withKey(admin.key) })).status).toBe(
        204,
      );
      expectEnvelope(await request(url, { headers: withKey(old.key) }), 401);
      expect((await request(url, { headers: withKey(fresh.key) })).status).toBe(200);
    });
  });

  describe('validation of a new key (400 naming the field)', () => {
    const cases: Array<[string, () => Promise<Record<string, unknown>> | Record<string, unknown>, string]> = [
      ['missing name', () => ({ name: undefined }), 'name'],
      ['empty name', () => ({ name: '' }), 'name'],
      ['oversized name', () => ({ name: 'n'.repeat(5000) }), 'name'],
      ['name of the wrong type', () => ({ name: ['x'] }), 'name'],
      ['missing agents', () => ({ agents: undefined }), 'agents'],
      ['agents neither "all" nor a list', () => ({ agents: 'some' }), 'agents'],
      ['an empty agents list', () => ({ agents: [] }), 'agents'],
      ['agents with a non-string', () => ({ agents: [42] }), 'agents'],
      ['an unknown agent', () => ({ agents: ['PROJECT-nosuchagent'] }), 'agents'],
      ['an agent of another account', () => ({ agents: [foreignAgent] }), 'agents'],
      ['an agent of another account among own agents', () => ({ agents: [agentA, foreignAgent] }), 'agents'],
      ['missing permissions', () => ({ permissions: undefined }), 'permissions'],
      ['empty permissions', () => ({ permissions: [] }), 'permissions'],
      ['an unknown permission', () => ({ permissions: ['agents', 'root'] }), 'permissions'],
      ['permissions not a list', () => ({ permissions: 'agents' }), 'permissions'],
      ['a permission of the wrong case', () => ({ permissions: ['Agents'] }), 'permissions'],
      ['missing expiresAt', () => ({ expiresAt: undefined }), 'expiresAt'],
      [
        'expiresAt in the past',
        async () => ({ expiresAt: new Date((await now()) - DAY_MS).toISOString() }),
        'expiresAt',
      ],
      ['expiresAt = now', async () => ({ expiresAt: new Date(await now()).toISOString() }), 'expiresAt'],
      [
        'expiresAt more than 2 years ahead',
        async () => ({ expiresAt: new Date((await now()) + 2 * 366 * DAY_MS).toISOString() }),
        'expiresAt',
      ],
      [
        'expiresAt 10 years ahead',
        async () => ({ expiresAt: new Date((await now()) + 3650 * DAY_MS).toISOString() }),
        'expiresAt',
      ],
      ['a malformed expiresAt', () => ({ expiresAt: 'next tuesday' }), 'expiresAt'],
      ['an expiresAt with month 13', () => ({ expiresAt: `${new Date().getUTCFullYear() + 1}-13-01` }), 'expiresAt'],
      ['an expiresAt in dd/mm/yyyy', () => ({ expiresAt: `01/02/${new Date().getUTCFullYear() + 1}` }), 'expiresAt'],
      ['an expiresAt that is a number', async () => ({ expiresAt: (await now()) + DAY_MS }), 'expiresAt'],
      ['an empty expiresAt', () => ({ expiresAt: '' }), 'expiresAt'],
      [
        'an expiresAt on a day that does not exist (Feb 30)',
        () => ({ expiresAt: `${new Date().getUTCFullYear() + 1}-02-30T00:00:00Z` }),
        'expiresAt',
      ],
      ['an unknown field', () => ({ scope: 'everything' }), 'scope'],
    ];

    it.each(cases)('%s', async (_what, patch, field) => {
      const before = keyList((await request(keysUrl(), { headers: withKey(admin.key) })).body).length;
      const r = await create(await patch());
      const envelope = expectEnvelope(r, 400);
      expect(errorText(envelope)).toContain(field);
      expect(JSON.stringify(r.body)).not.toMatch(/sk_[a-z0-9]{8,}/);
      const after = keyList((await request(keysUrl(), { headers: withKey(admin.key) })).body).length;
      expect(after).toBe(before);
    });

    it('malformed JSON: 400', async () => {
      expectEnvelope(
        await request(keysUrl(), {
          rawBody: '{"name":"x",',
          headers: { ...withKey(admin.key), 'content-type': 'application/json' },
        }),
        400,
        'INVALID_JSON',
      );
    });

    it('expiresAt just under 2 years ahead is accepted; just over is not', async () => {
      const base = await now();
      // 730 days is within two years however they are counted
      expect((await create({ expiresAt: new Date(base + 730 * DAY_MS - 60_000).toISOString() })).status).toBe(201);
      const twoYears = new Date(base);
      twoYears.setUTCFullYear(twoYears.getUTCFullYear() + 2);
      const r = await create({ expiresAt: new Date(twoYears.getTime() + DAY_MS).toISOString() });
      expect(errorText(expectEnvelope(r, 400))).toContain('expiresAt');
    });

    it('a date-only expiresAt is accepted', async () => {
      const day = new Date((await now()) + 10 * DAY_MS).toISOString().slice(0, 10);
      const r = await create({ expiresAt: day });
      expect(r.status).toBe(201);
      expect(r.body.expiresAt.slice(0, 10)).toBe(day);
    });

    it('the account must exist: 404 for the operator', async () => {
      const r = await request(`${t.url}/v1/accounts/ws-nosuchacct/api-keys`, {
        body: { name: 'x', agents: 'all', permissions: ['agents'], expiresAt: await expiry(5) },
        headers: op(t),
      });
      expectEnvelope(r, 404, 'ACCOUNT_NOT_FOUND');
    });
  });

  describe('no escalation: a key cannot grant what it lacks', () => {
    let limited: Json;
    let scoped: Json;
    beforeAll(async () => {
      limited = (await create({ name: 'limited', permissions: ['keys', 'agents'] })).body;
      scoped = (await create({ name: 'scoped', agents: [agentA], permissions: ['keys', 'agents'] })).body;
    });

    it.each([[['conversations']], [['keys', 'agents', 'handoff']], [['desk']]])(
      'granting %p: 403 PERMISSION_ESCALATION',
      async (permissions) => {
        expectEnvelope(await create({ permissions }, limited.key), 403, 'PERMISSION_ESCALATION');
      },
    );

    it('granting a subset or the same set is allowed', async () => {
      expect((await create({ permissions: ['agents'] }, limited.key)).status).toBe(201);
      expect((await create({ permissions: ['keys', 'agents'] }, limited.key)).status).toBe(201);
    });

    it('a key scoped to agent A cannot mint a key for all agents or for agent B', async () => {
      expectEnvelope(await create({ agents: 'all' }, scoped.key), 403, 'PERMISSION_ESCALATION');
      expectEnvelope(await create({ agents: [agentB] }, scoped.key), 403, 'PERMISSION_ESCALATION');
      expectEnvelope(await create({ agents: [agentA, agentB] }, scoped.key), 403, 'PERMISSION_ESCALATION');
      const ok = await create({ agents: [agentA] }, scoped.key);
      expect(ok.status).toBe(201);
      expect(ok.body.agents).toEqual([agentA]);
    });

    it('a refused escalation creates nothing', async () => {
      const before = keyList((await request(keysUrl(), { headers: withKey(admin.key) })).body).length;
      await create({ permissions: ['conversations'] }, limited.key);
      const after = keyList((await request(keysUrl(), { headers: withKey(admin.key) })).body).length;
      expect(after).toBe(before);
    });

    it('the operator may grant anything', async () => {
      const r = await request(keysUrl(), {
        body: { name: 'op', agents: 'all', permissions: ['desk', 'sms'], expiresAt: await expiry(5) },
        headers: op(t),
      });
      expect(r.status).toBe(201);
    });
  });

  describe('the keys permission', () => {
    it('a key without `keys` gets 403 on every key route', async () => {
      const plain = (await create({ name: 'plain', permissions: ['agents', 'conversations'] })).body;
      const h = withKey(plain.key);
      expectEnvelope(await request(keysUrl(), { headers: h }), 403);
      expectEnvelope(await request(`${keysUrl()}/${plain.id}`, { headers: h }), 403);
      expectEnvelope(
        await request(`${keysUrl()}/${plain.id}`, { method: 'PATCH', body: { name: 'x' }, headers: h }),
        403,
      );
      expectEnvelope(await request(`${keysUrl()}/${admin.id}`, { method: 'DELETE', headers: h }), 403);
      expectEnvelope(
        await request(keysUrl(), {
          body: { name: 'x', agents: 'all', permissions: ['agents'], expiresAt: await expiry(5) },
          headers: h,
        }),
        403,
      );
      // the admin key is untouched
      expect((await request(keysUrl(), { headers: withKey(admin.key) })).status).toBe(200);
    });
  });

  describe('path and header forms', () => {
    const bare = () => accountId.replace(/^ws-/, '');

    it.each([
      ['ws-<id>', () => accountId],
      ['ACCOUNT-<id>', () => `ACCOUNT-${bare()}`],
      ['the bare id', () => bare()],
    ])('%s works for list, create, get, patch and delete', async (_form, account) => {
      const base = `${t.url}/v1/accounts/${account()}/api-keys`;
      expect((await request(base, { headers: withKey(admin.key) })).status).toBe(200);
      const created = await request(base, {
        body: { name: 'form', agents: 'all', permissions: ['agents'], expiresAt: await expiry(5) },
        headers: withKey(admin.key),
      });
      expect(created.status).toBe(201);
      expect((await request(`${base}/${created.body.id}`, { headers: withKey(admin.key) })).status).toBe(200);
      expect(
        (
          await request(`${base}/${created.body.id}`, {
            method: 'PATCH',
            body: { name: 'renamed' },
            headers: withKey(admin.key),
          })
        ).status,
      ).toBe(200);
      expect(
        (await request(`${base}/${created.body.id}`, { method: 'DELETE', headers: withKey(admin.key) })).status,
      ).toBe(204);
      // the key was created in this account
      expectEnvelope(await request(`${keysUrl()}/${created.body.id}`, { headers: withKey(admin.key) }), 404);
    });

    it.each(['x-api-key', 'X-API-KEY', 'X-Api-Key', 'x-API-key'])('the header %s is accepted', async (header) => {
      const r = await request(keysUrl(), { headers: { [header]: admin.key } });
      expect(r.status).toBe(200);
    });

    it('a malformed account id in the path: 400', async () => {
      expectEnvelope(
        await request(`${t.url}/v1/accounts/ws-${encodeURIComponent('a b')}/api-keys`, { headers: withKey(admin.key) }),
        400,
      );
    });
  });

  describe('expiry (on the platform clock)', () => {
    it('a key works until its expiresAt and answers 401 API_KEY_EXPIRED from that instant, on every route', async () => {
      const start = await now();
      const expiresAt = new Date(start + 3600_000).toISOString();
      const k = (await create({ name: 'short lived', permissions: ['agents', 'keys'], expiresAt })).body;
      expect(k.expiresAt).toBe(expiresAt);
      const routes = [
        keysUrl(),
        `${t.url}/v1/accounts/${accountId}/agents`,
        `${t.url}/v1/agents/${agentA}`,
        `${t.url}/v1/accounts/${accountId}/agents/${agentA}/data-access`,
      ];
      for (const url of routes) expect((await request(url, { headers: withKey(k.key) })).status).toBe(200);

      await advanceClock(t, 3599);
      for (const url of routes) expect((await request(url, { headers: withKey(k.key) })).status).toBe(200);

      const at = await advanceClock(t, 1);
      expect(at).toBe(Date.parse(expiresAt));
      for (const url of routes) expectEnvelope(await request(url, { headers: withKey(k.key) }), 401, 'API_KEY_EXPIRED');
      // still 401 later on
      await advanceClock(t, 60);
      expectEnvelope(await request(routes[1], { headers: withKey(k.key) }), 401, 'API_KEY_EXPIRED');
      // the other keys are unaffected
      expect((await request(routes[1], { headers: withKey(admin.key) })).status).toBe(200);
    });

    it('an expired key cannot create keys either', async () => {
      const k = (
        await create({
          name: 'expiring keys key',
          permissions: ['keys', 'agents'],
          expiresAt: new Date((await now()) + 10_000).toISOString(),
        })
      ).body;
      await advanceClock(t, 11);
      const r = await request(keysUrl(), {
        body: { name: 'x', agents: 'all', permissions: ['agents'], expiresAt: await expiry(5) },
        headers: withKey(k.key),
      });
      expectEnvelope(r, 401, 'API_KEY_EXPIRED');
    });

    it('the 2-year limit and "in the future" follow the platform clock', async () => {
      const before = await now();
      const shortly = new Date(before + 3600_000).toISOString();
      await advanceClock(t, 7200);
      const r = await create({ expiresAt: shortly });
      expect(errorText(expectEnvelope(r, 400))).toContain('expiresAt');
    });
  });

  describe('Idempotency-Key on key creation', () => {
    it('a repeat with the same key and body returns the first response and creates nothing', async () => {
      const body = { name: 'idem', agents: 'all', permissions: ['agents'], expiresAt: await expiry(20) };
      const headers = { ...withKey(admin.key), 'idempotency-key': `idem-${Date.now()}` };
      const first = await request(keysUrl(), { body, headers });
      const before = keyList((await request(keysUrl(), { headers: withKey(admin.key) })).body).length;
      const again = await request(keysUrl(), { body, headers });
      expect(first.status).toBe(201);
      expect(again.status).toBe(201);
      expect(again.body.id).toBe(first.body.id);
      const after = keyList((await request(keysUrl(), { headers: withKey(admin.key) })).body).length;
      expect(after).toBe(before);
    });
  });
});
