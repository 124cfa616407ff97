import { AgentsClient, bare, createAccount, startAgentsFixture, type AgentsFixture } from './helpers/agents-fixture';
import { expectEnvelope, request } from './helpers/test-app';

/*
 * Agents API over HTTP: agents, branches, behavior, knowledge base topics, validation and auth
 * (interface.md "Agent", "Branch", "Behavior", "Knowledge base topic", "Agents API",
 * "Errors → Agents API"; contract §2 and §5). Merges and deployments: deployments.e2e.spec.ts.
 */

const ISO_MS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const MAIN_MESSAGE = /main cannot be updated directly/;

describe('Agents API (over HTTP)', () => {
  let fx: AgentsFixture;
  let api: AgentsClient;
  beforeAll(async () => {
    fx = await startAgentsFixture();
    api = fx.api;
  });
  afterAll(async () => fx?.close());

  describe('agents', () => {
    it('POST /v1/accounts/{accountId}/agents answers 200 with the agent: ws- account, PROJECT- id, exactly one branch', async () => {
      const r = await api.post(`/v1/accounts/${fx.account.accountId}/agents`, {
        name: 'Front desk',
        responseSettings: { greeting: 'Welcome!' },
      });
      expect(r.status).toBe(200);
      expect(r.body).toEqual({
        accountId: fx.account.accountId,
        agentId: expect.stringMatching(/^PROJECT-[A-Za-z0-9_-]+$/),
        agentName: 'Front desk',
        createdAt: expect.stringMatching(ISO_MS),
        updatedAt: expect.stringMatching(ISO_MS),
        branchCount: 1,
      });
      expect(r.body.accountId).toMatch(/^ws-/);
      const branches = await api.get(`/v1/agents/${r.body.agentId}/branches`);
      expect(branches.status).toBe(200);
      expect(branches.body.branches).toHaveLength(1);
      expect(branches.body.branches[0]).toMatchObject({ branchName: 'main', sequenceId: '0', status: 'open' });
      expect(['main', 'BRANCH-main']).toContain(branches.body.branches[0].branchId);
    });

    it('accepts the bare account slug in the path and an optional responseSettings.languageCode', async () => {
      const r = await api.post(`/v1/accounts/${fx.account.accountSlug}/agents`, {
        name: 'Slug bot',
        responseSettings: { greeting: 'Hi', languageCode: 'fr-FR' },
      });
      expect(r.status).toBe(200);
      expect(r.body.accountId).toBe(fx.account.accountId);
    });

    it('read-your-writes: a created agent is in the account list and readable at once', async () => {
      const created = await api.createAgent('Listed bot');
      const list = await api.get(`/v1/accounts/${fx.account.accountId}/agents`);
      expect(list.status).toBe(200);
      expect(Array.isArray(list.body)).toBe(true);
      expect(list.body).toContainEqual(created);
      const got = await api.get(`/v1/agents/${created.agentId}`);
      expect(got).toMatchObject({ status: 200, body: created });
    });

    it('lists agents per account: another account sees only its own', async () => {
      const other = new AgentsClient(fx.t, await createAccount(fx.t, 'Other Co'));
      const mine = await api.createAgent('Mine');
      const theirs = await other.createAgent('Theirs');
      const myList = (await api.get(`/v1/accounts/${fx.account.accountId}/agents`)).body as Array<{
        agentId: string;
        accountId: string;
      }>;
      const theirList = (await other.get(`/v1/accounts/${other.account.accountId}/agents`)).body as Array<{
        agentId: string;
        accountId: string;
      }>;
      expect(myList.map((a) => a.agentId)).toContain(mine.agentId);
      expect(myList.map((a) => a.agentId)).not.toContain(theirs.agentId);
      expect(theirList.map((a) => a.agentId)).toEqual([theirs.agentId]);
      expect(new Set(myList.map((a) => a.accountId))).toEqual(new Set([fx.account.accountId]));
    });

    it('GET /v1/agents/{agentId} accepts PROJECT-<id> and the bare id', async () => {
      const created = await api.createAgent();
      const prefixed = await api.get(`/v1/agents/${created.agentId}`);
      const plain = await api.get(`/v1/agents/${bare(created.agentId)}`);
      expect(prefixed).toMatchObject({ status: 200, body: created });
      expect(plain).toMatchObject({ status: 200, body: created });
    });

    it('an unknown agent answers 404', async () => {
      expectEnvelope(await api.get('/v1/agents/PROJECT-doesnotexist'), 404);
      expectEnvelope(await api.get('/v1/agents/doesnotexist/branches'), 404);
    });

    it('DELETE /v1/agents/{agentId}: afterwards the agent, its branches and deployments answer 404 and it leaves the list', async () => {
      const created = await api.createAgent('Doomed');
      const branch = await api.createBranch(created.agentId, 'work');
      await api.addTopic(created.agentId, branch.branchId, { name: 'hours' });
      await api.merge(created.agentId, branch.branchId);

      const del = await api.delete(`/v1/agents/${created.agentId}`);
      expect([200, 204]).toContain(del.status);

      expectEnvelope(await api.get(`/v1/agents/${created.agentId}`), 404);
      expectEnvelope(await api.get(`/v1/agents/${bare(created.agentId)}`), 404);
      expectEnvelope(await api.get(`/v1/agents/${created.agentId}/branches`), 404);
      expectEnvelope(await api.get(`/v1/agents/${created.agentId}/branches/main/behavior`), 404);
      expectEnvelope(await api.get(`/v1/agents/${created.agentId}/branches/main/knowledge-base/topics`), 404);
      expectEnvelope(await api.get(`/v1/agents/${created.agentId}/deployments`), 404);
      expectEnvelope(await api.get(`/v1/agents/${created.agentId}/deployments/active`), 404);
      expectEnvelope(await api.post(`/v1/agents/${created.agentId}/branches`, { branchName: 'again' }), 404);
      expectEnvelope(await api.delete(`/v1/agents/${created.agentId}`), 404);
      const list = (await api.get(`/v1/accounts/${fx.account.accountId}/agents`)).body as Array<{ agentId: string }>;
      expect(list.map((a) => a.agentId)).not.toContain(created.agentId);
    });

    it('needs a key (401) of the right account (403)', async () => {
      const created = await api.createAgent();
      const noKey = await request(`${fx.t.url}/v1/agents/${created.agentId}`);
      expectEnvelope(noKey, 401);
      const badKey = await request(`${fx.t.url}/v1/agents/${created.agentId}`, {
        headers: { 'x-api-key': 'sk_not_a_key' },
      });
      expectEnvelope(badKey, 401);
      const other = new AgentsClient(fx.t, await createAccount(fx.t, 'Intruder'));
      expectEnvelope(await other.get(`/v1/agents/${created.agentId}`), 403);
      expectEnvelope(await other.get(`/v1/accounts/${fx.account.accountId}/agents`), 403);
      expectEnvelope(
        await other.post(`/v1/accounts/${fx.account.accountId}/agents`, {
          name: 'x',
          responseSettings: { greeting: 'y' },
        }),
        403,
      );
    });
  });

  describe('validation: 400 naming the field, never a 500', () => {
    const agents = () => `/v1/accounts/${fx.account.accountId}/agents`;

    it.each<[string, unknown, string]>([
      ['missing name', { responseSettings: { greeting: 'Hi' } }, 'name'],
      ['name of the wrong type', { name: 42, responseSettings: { greeting: 'Hi' } }, 'name'],
      ['missing responseSettings', { name: 'Bot' }, 'responseSettings'],
      ['responseSettings.greeting of the wrong type', { name: 'Bot', responseSettings: { greeting: 7 } }, 'greeting'],
      ['an unknown field', { name: 'Bot', responseSettings: { greeting: 'Hi' }, colour: 'blue' }, 'colour'],
    ])('create agent: %s', async (_name, body, field) => {
      const envelope = expectEnvelope(await api.post(agents(), body), 400);
      expect(envelope.error_message).toContain(field);
    });

    it('malformed JSON answers 400', async () => {
      const r = await request(`${fx.t.url}${agents()}`, {
        method: 'POST',
        rawBody: '{"name":',
        headers: { 'x-api-key': fx.account.key, 'content-type': 'application/json' },
      });
      expectEnvelope(r, 400);
    });

    it.each<[string, unknown, string]>([
      ['missing branchName', {}, 'branchName'],
      ['branchName of the wrong type', { branchName: 12 }, 'branchName'],
      ['an unknown field', { branchName: 'ok', from: 'main' }, 'from'],
    ])('create branch: %s', async (_name, body, field) => {
      const agent = await api.createAgent();
      const envelope = expectEnvelope(await api.post(`/v1/agents/${agent.agentId}/branches`, body), 400);
      expect(envelope.error_message).toContain(field);
    });

    it.each<[string, unknown, string]>([
      ['missing behavior', {}, 'behavior'],
      ['behavior of the wrong type', { behavior: ['x'] }, 'behavior'],
      ['an unknown field', { behavior: 'x', tone: 'warm' }, 'tone'],
    ])('patch behavior: %s', async (_name, body, field) => {
      const agent = await api.createAgent();
      const branch = await api.createBranch(agent.agentId, 'b');
      const envelope = expectEnvelope(
        await api.patch(`/v1/agents/${agent.agentId}/branches/${branch.branchId}/behavior`, body),
        400,
      );
      expect(envelope.error_message).toContain(field);
    });

    it.each<[string, unknown, string]>([
      ['missing name', { content: 'c', exampleQueries: { queries: [] } }, 'name'],
      ['missing content', { name: 'n', exampleQueries: { queries: [] } }, 'content'],
      ['missing exampleQueries', { name: 'n', content: 'c' }, 'exampleQueries'],
      ['queries of the wrong type', { name: 'n', content: 'c', exampleQueries: { queries: 'q' } }, 'queries'],
      ['a query of the wrong type', { name: 'n', content: 'c', exampleQueries: { queries: [1] } }, 'queries'],
      [
        'more than 100 example queries',
        { name: 'n', content: 'c', exampleQueries: { queries: Array.from({ length: 101 }, (_, i) => `q${i}`) } },
        'queries',
      ],
      [
        'isActive of the wrong type',
        { name: 'n', content: 'c', exampleQueries: { queries: [] }, isActive: 'yes' },
        'isActive',
      ],
      [
        'actions of the wrong type',
        { name: 'n', content: 'c', exampleQueries: { queries: [] }, actions: { a: 1 } },
        'actions',
      ],
      ['an unknown field', { name: 'n', content: 'c', exampleQueries: { queries: [] }, priority: 1 }, 'priority'],
    ])('create topic: %s', async (_name, body, field) => {
      const agent = await api.createAgent();
      const branch = await api.createBranch(agent.agentId, 'b');
      const envelope = expectEnvelope(
        await api.post(`/v1/agents/${agent.agentId}/branches/${branch.branchId}/knowledge-base/topics`, body),
        400,
      );
      expect(envelope.error_message).toContain(field);
      expect(await api.topics(agent.agentId, branch.branchId)).toEqual([]);
    });

    it('exactly 100 example queries are accepted', async () => {
      const agent = await api.createAgent();
      const branch = await api.createBranch(agent.agentId, 'b');
      const topic = await api.addTopic(agent.agentId, branch.branchId, {
        name: 'many',
        queries: Array.from({ length: 100 }, (_, i) => `q${i}`),
      });
      expect(topic.exampleQueries.queries).toHaveLength(100);
    });

    it.each<[string, unknown, string]>([
      ['content of the wrong type', { content: 5 }, 'content'],
      [
        'more than 100 example queries',
        { exampleQueries: { queries: Array.from({ length: 101 }, (_, i) => `q${i}`) } },
        'queries',
      ],
      ['an unknown field', { colour: 'red' }, 'colour'],
    ])('patch topic: %s', async (_name, body, field) => {
      const agent = await api.createAgent();
      const branch = await api.createBranch(agent.agentId, 'b');
      const topic = await api.addTopic(agent.agentId, branch.branchId, { name: 't' });
      const envelope = expectEnvelope(
        await api.patch(
          `/v1/agents/${agent.agentId}/branches/${branch.branchId}/knowledge-base/topics/${topic.id}`,
          body,
        ),
        400,
      );
      expect(envelope.error_message).toContain(field);
      expect(await api.topics(agent.agentId, branch.branchId)).toEqual([topic]);
    });

    it.each<[string, unknown, string]>([
      ['deploymentMessage of the wrong type', { deploymentMessage: 3 }, 'deploymentMessage'],
      ['conflictResolutions of the wrong type', { conflictResolutions: 'ours' }, 'conflictResolutions'],
      [
        'an unknown resolution strategy',
        { conflictResolutions: [{ path: ['behavior'], strategy: 'mine' }] },
        'strategy',
      ],
      ['an unknown field', { deploymentMessage: 'm', force: true }, 'force'],
    ])('merge: %s', async (_name, body, field) => {
      const agent = await api.createAgent();
      const branch = await api.createBranch(agent.agentId, 'b');
      const envelope = expectEnvelope(
        await api.post(`/v1/agents/${agent.agentId}/branches/${branch.branchId}/merge`, body),
        400,
      );
      expect(envelope.error_message).toContain(field);
      expect(await api.deployments(agent.agentId)).toEqual([]);
    });
  });

  describe('branches', () => {
    it('POST /branches answers branchId BRANCH-<id> and sequenceId (main sequence it was cut from); the list shows it', async () => {
      const agent = await api.createAgent();
      const r = await api.post(`/v1/agents/${agent.agentId}/branches`, { branchName: 'feature/greeting' });
      expect([200, 201]).toContain(r.status);
      expect(r.body).toMatchObject({ branchId: expect.stringMatching(/^BRANCH-[A-Za-z0-9_-]+$/), sequenceId: '0' });
      expect(typeof r.body.sequenceId).toBe('string');
      const list = await api.get(`/v1/agents/${agent.agentId}/branches`);
      expect(list.status).toBe(200);
      const row = list.body.branches.find((b: { branchId: string }) => b.branchId === r.body.branchId);
      expect(row).toEqual({
        branchId: r.body.branchId,
        branchName: 'feature/greeting',
        sequenceId: '0',
        status: 'open',
        createdAt: expect.stringMatching(ISO_MS),
      });
      expect((await api.get(`/v1/agents/${agent.agentId}`)).body.branchCount).toBe(2);
    });

    it("a branch cut after a merge carries main's new sequence", async () => {
      const agent = await api.createAgent();
      await api.shipChange(agent.agentId, 'first', (b) => api.setBehavior(agent.agentId, b, 'v1'));
      const second = await api.createBranch(agent.agentId, 'second');
      expect(second.sequenceId).toBe('1');
      await api.shipChange(agent.agentId, 'third', (b) => api.setBehavior(agent.agentId, b, 'v2'));
      expect((await api.createBranch(agent.agentId, 'fourth')).sequenceId).toBe('2');
      // the branch cut earlier keeps its base
      const list = (await api.get(`/v1/agents/${agent.agentId}/branches`)).body.branches as Array<{
        branchId: string;
        sequenceId: string;
        status: string;
      }>;
      expect(list.find((b) => b.branchId === second.branchId)).toMatchObject({ sequenceId: '1', status: 'open' });
    });

    it('a new branch starts with main content', async () => {
      const agent = await api.createAgent();
      await api.shipChange(agent.agentId, 'seed', async (b) => {
        await api.setBehavior(agent.agentId, b, 'Be brief.');
        await api.addTopic(agent.agentId, b, { name: 'hours', content: '9 to 5' });
      });
      const branch = await api.createBranch(agent.agentId, 'next');
      expect(await api.behavior(agent.agentId, branch.branchId)).toBe('Be brief.');
      const topics = await api.topics(agent.agentId, branch.branchId);
      expect(topics.map((t) => [t.name, t.content])).toEqual([['hours', '9 to 5']]);
    });

    it('a duplicate branch name answers 409; so does the name main', async () => {
      const agent = await api.createAgent();
      await api.createBranch(agent.agentId, 'dup');
      expectEnvelope(await api.post(`/v1/agents/${agent.agentId}/branches`, { branchName: 'dup' }), 409);
      expectEnvelope(await api.post(`/v1/agents/${agent.agentId}/branches`, { branchName: 'main' }), 409);
      expect((await api.get(`/v1/agents/${agent.agentId}/branches`)).body.branches).toHaveLength(2);
    });

    it('accepts BRANCH-<id> and the bare id for a branch, PROJECT-<id> and the bare id for the agent', async () => {
      const agent = await api.createAgent();
      const branch = await api.createBranch(agent.agentId, 'forms');
      await api.setBehavior(agent.agentId, branch.branchId, 'via prefixed');
      for (const agentRef of [agent.agentId, bare(agent.agentId)]) {
        for (const branchRef of [branch.branchId, bare(branch.branchId)]) {
          const r = await api.get(`/v1/agents/${agentRef}/branches/${branchRef}/behavior`);
          expect({ agentRef, branchRef, status: r.status, body: r.body }).toEqual({
            agentRef,
            branchRef,
            status: 200,
            body: { behavior: 'via prefixed' },
          });
        }
      }
      await api.setBehavior(bare(agent.agentId), bare(branch.branchId), 'via bare');
      expect(await api.behavior(agent.agentId, branch.branchId)).toBe('via bare');
      const topic = await api.addTopic(bare(agent.agentId), bare(branch.branchId), { name: 'bare' });
      expect(await api.topics(agent.agentId, branch.branchId)).toEqual([topic]);
    });

    it('main is addressable as branch id main', async () => {
      const agent = await api.createAgent();
      expect(await api.get(`/v1/agents/${agent.agentId}/branches/main/behavior`)).toMatchObject({
        status: 200,
        body: { behavior: '' },
      });
      expect(await api.get(`/v1/agents/${bare(agent.agentId)}/branches/main/knowledge-base/topics`)).toMatchObject({
        status: 200,
        body: [],
      });
    });

    it('DELETE a branch: it leaves the list, answers 404 afterwards, and its name is free', async () => {
      const agent = await api.createAgent();
      const branch = await api.createBranch(agent.agentId, 'temp');
      await api.addTopic(agent.agentId, branch.branchId, { name: 'x' });
      const del = await api.delete(`/v1/agents/${agent.agentId}/branches/${branch.branchId}`);
      expect([200, 204]).toContain(del.status);
      const list = (await api.get(`/v1/agents/${agent.agentId}/branches`)).body.branches as Array<{ branchId: string }>;
      expect(list.map((b) => b.branchId)).not.toContain(branch.branchId);
      expect((await api.get(`/v1/agents/${agent.agentId}`)).body.branchCount).toBe(1);
      expectEnvelope(await api.get(`/v1/agents/${agent.agentId}/branches/${branch.branchId}/behavior`), 404);
      expectEnvelope(
        await api.get(`/v1/agents/${agent.agentId}/branches/${branch.branchId}/knowledge-base/topics`),
        404,
      );
      expectEnvelope(
        await api.patch(`/v1/agents/${agent.agentId}/branches/${branch.branchId}/behavior`, { behavior: 'x' }),
        404,
      );
      expectEnvelope(await api.post(`/v1/agents/${agent.agentId}/branches/${branch.branchId}/merge`, {}), 404);
      expectEnvelope(await api.delete(`/v1/agents/${agent.agentId}/branches/${branch.branchId}`), 404);
      const again = await api.createBranch(agent.agentId, 'temp');
      expect(again.branchId).not.toBe(branch.branchId);
    });

    it('DELETE of main answers 422; of an unknown branch 404', async () => {
      const agent = await api.createAgent();
      expectEnvelope(await api.delete(`/v1/agents/${agent.agentId}/branches/main`), 422);
      expectEnvelope(await api.delete(`/v1/agents/${agent.agentId}/branches/BRANCH-nope`), 404);
      expectEnvelope(await api.get(`/v1/agents/${agent.agentId}/branches/BRANCH-nope/behavior`), 404);
    });
  });

  describe('behavior', () => {
    it('GET/PATCH behavior on a branch; main is unchanged until merge', async () => {
      const agent = await api.createAgent();
      const branch = await api.createBranch(agent.agentId, 'tone');
      expect(await api.behavior(agent.agentId, branch.branchId)).toBe('');
      const r = await api.patch(`/v1/agents/${agent.agentId}/branches/${branch.branchId}/behavior`, {
        behavior: 'You are a polite receptionist.',
      });
      expect(r.status).toBeGreaterThanOrEqual(200);
      expect(r.status).toBeLessThan(300);
      expect(await api.behavior(agent.agentId, branch.branchId)).toBe('You are a polite receptionist.');
      expect(await api.behavior(agent.agentId, 'main')).toBe('');
    });
  });

  describe('knowledge base topics', () => {
    it('POST answers 201 with the topic; GET lists it at once; isActive defaults true', async () => {
      const agent = await api.createAgent();
      const branch = await api.createBranch(agent.agentId, 'kb');
      const r = await api.post(`/v1/agents/${agent.agentId}/branches/${branch.branchId}/knowledge-base/topics`, {
        name: 'Opening hours',
        content: 'We are open 9 to 5.',
        exampleQueries: { queries: ['when are you open', 'opening hours'] },
      });
      expect(r.status).toBe(201);
      expect(r.body).toEqual({
        id: expect.any(String),
        name: 'Opening hours',
        content: 'We are open 9 to 5.',
        actions: expect.any(String),
        exampleQueries: { queries: ['when are you open', 'opening hours'] },
        isActive: true,
      });
      expect(await api.topics(agent.agentId, branch.branchId)).toEqual([r.body]);
      expect(await api.topics(agent.agentId, 'main')).toEqual([]);
    });

    it('keeps actions and isActive as given', async () => {
      const agent = await api.createAgent();
      const branch = await api.createBranch(agent.agentId, 'kb');
      const topic = await api.addTopic(agent.agentId, branch.branchId, {
        name: 'transfer',
        actions: 'handoff destination=sales reason=asked',
        isActive: false,
      });
      expect(topic).toMatchObject({ actions: 'handoff destination=sales reason=asked', isActive: false });
    });

    it('a second POST with the same name answers 409', async () => {
      const agent = await api.createAgent();
      const branch = await api.createBranch(agent.agentId, 'kb');
      const first = await api.addTopic(agent.agentId, branch.branchId, { name: 'refunds' });
      expectEnvelope(
        await api.post(`/v1/agents/${agent.agentId}/branches/${branch.branchId}/knowledge-base/topics`, {
          name: 'refunds',
          content: 'other',
          exampleQueries: { queries: [] },
        }),
        409,
      );
      expect(await api.topics(agent.agentId, branch.branchId)).toEqual([first]);
    });

    it('the same name on two different branches is fine', async () => {
      const agent = await api.createAgent();
      const a = await api.createBranch(agent.agentId, 'a');
      const b = await api.createBranch(agent.agentId, 'b');
      await api.addTopic(agent.agentId, a.branchId, { name: 'same' });
      await api.addTopic(agent.agentId, b.branchId, { name: 'same' });
    });

    it('PATCH answers 204 and changes only the given fields', async () => {
      const agent = await api.createAgent();
      const branch = await api.createBranch(agent.agentId, 'kb');
      const topic = await api.addTopic(agent.agentId, branch.branchId, {
        name: 'hours',
        content: 'old',
        queries: ['q1'],
      });
      const r = await api.patch(
        `/v1/agents/${agent.agentId}/branches/${branch.branchId}/knowledge-base/topics/${topic.id}`,
        { content: 'new', exampleQueries: { queries: ['q2', 'q3'] } },
      );
      expect(r.status).toBe(204);
      expect(await api.topics(agent.agentId, branch.branchId)).toEqual([
        { ...topic, content: 'new', exampleQueries: { queries: ['q2', 'q3'] } },
      ]);
      await api.editTopic(agent.agentId, branch.branchId, topic.id, { isActive: false, name: 'opening hours' });
      expect(await api.topics(agent.agentId, branch.branchId)).toEqual([
        { ...topic, name: 'opening hours', content: 'new', exampleQueries: { queries: ['q2', 'q3'] }, isActive: false },
      ]);
    });

    it('PATCH renaming onto an existing name answers 409', async () => {
      const agent = await api.createAgent();
      const branch = await api.createBranch(agent.agentId, 'kb');
      const a = await api.addTopic(agent.agentId, branch.branchId, { name: 'a' });
      await api.addTopic(agent.agentId, branch.branchId, { name: 'b' });
      expectEnvelope(
        await api.patch(`/v1/agents/${agent.agentId}/branches/${branch.branchId}/knowledge-base/topics/${a.id}`, {
          name: 'b',
        }),
        409,
      );
    });

    it('DELETE answers 204; the topic is gone', async () => {
      const agent = await api.createAgent();
      const branch = await api.createBranch(agent.agentId, 'kb');
      const keep = await api.addTopic(agent.agentId, branch.branchId, { name: 'keep' });
      const drop = await api.addTopic(agent.agentId, branch.branchId, { name: 'drop' });
      const r = await api.delete(
        `/v1/agents/${agent.agentId}/branches/${branch.branchId}/knowledge-base/topics/${drop.id}`,
      );
      expect(r.status).toBe(204);
      expect(await api.topics(agent.agentId, branch.branchId)).toEqual([keep]);
    });

    it('PATCH and DELETE of an unknown topic answer 404', async () => {
      const agent = await api.createAgent();
      const branch = await api.createBranch(agent.agentId, 'kb');
      expectEnvelope(
        await api.patch(`/v1/agents/${agent.agentId}/branches/${branch.branchId}/knowledge-base/topics/topic_nope`, {
          content: 'x',
        }),
        404,
      );
      expectEnvelope(
        await api.delete(`/v1/agents/${agent.agentId}/branches/${branch.branchId}/knowledge-base/topics/topic_nope`),
        404,
      );
      const gone = await api.addTopic(agent.agentId, branch.branchId, { name: 'gone' });
      await api.removeTopic(agent.agentId, branch.branchId, gone.id);
      expectEnvelope(
        await api.delete(`/v1/agents/${agent.agentId}/branches/${branch.branchId}/knowledge-base/topics/${gone.id}`),
        404,
      );
    });

    it('topics of an unknown branch answer 404', async () => {
      const agent = await api.createAgent();
      expectEnvelope(await api.get(`/v1/agents/${agent.agentId}/branches/BRANCH-nope/knowledge-base/topics`), 404);
      expectEnvelope(
        await api.post(`/v1/agents/${agent.agentId}/branches/BRANCH-nope/knowledge-base/topics`, {
          name: 'n',
          content: 'c',
          exampleQueries: { queries: [] },
        }),
        404,
      );
    });
  });

  describe('writes to main answer 422 saying main cannot be updated directly', () => {
    let agentId: string;
    let mainTopicId: string;
    beforeAll(async () => {
      agentId = (await api.createAgent('Main guard')).agentId;
      await api.shipChange(agentId, 'seed', (b) => api.addTopic(agentId, b, { name: 'hours' }));
      mainTopicId = (await api.topicByName(agentId, 'main', 'hours'))!.id;
    });

    it.each<[string, string, string, unknown]>([
      ['PATCH behavior', 'PATCH', 'behavior', { behavior: 'sneaky' }],
      [
        'POST topic',
        'POST',
        'knowledge-base/topics',
        { name: 'sneaky', content: 'c', exampleQueries: { queries: [] } },
      ],
      ['PATCH topic', 'PATCH', 'knowledge-base/topics/{topic}', { content: 'sneaky' }],
      ['DELETE topic', 'DELETE', 'knowledge-base/topics/{topic}', undefined],
      ['POST merge', 'POST', 'merge', { deploymentMessage: 'sneaky' }],
    ])('%s on main', async (_name, method, suffix, body) => {
      const r = await api.call(
        method,
        `/v1/agents/${agentId}/branches/main/${suffix.replace('{topic}', mainTopicId)}`,
        body,
      );
      const envelope = expectEnvelope(r, 422);
      expect(envelope.error_message).toMatch(MAIN_MESSAGE);
      expect(await api.behavior(agentId, 'main')).toBe('');
      expect((await api.topics(agentId, 'main')).map((t) => [t.name, t.content])).toEqual([['hours', 'hours content']]);
      expect(await api.deployments(agentId)).toHaveLength(1);
    });
  });

  describe('a merged branch is read-only (409)', () => {
    it('edits, topic changes and a second merge of a merged branch answer 409', async () => {
      const agent = await api.createAgent();
      const branch = await api.createBranch(agent.agentId, 'done');
      const topic = await api.addTopic(agent.agentId, branch.branchId, { name: 'hours' });
      await api.merge(agent.agentId, branch.branchId);
      const list = (await api.get(`/v1/agents/${agent.agentId}/branches`)).body.branches as Array<{
        branchId: string;
        status: string;
      }>;
      expect(list.find((b) => b.branchId === branch.branchId)!.status).toBe('merged');
      const base = `/v1/agents/${agent.agentId}/branches/${branch.branchId}`;
      expectEnvelope(await api.patch(`${base}/behavior`, { behavior: 'late' }), 409);
      expectEnvelope(
        await api.post(`${base}/knowledge-base/topics`, {
          name: 'late',
          content: 'c',
          exampleQueries: { queries: [] },
        }),
        409,
      );
      expectEnvelope(await api.patch(`${base}/knowledge-base/topics/${topic.id}`, { content: 'late' }), 409);
      expectEnvelope(await api.delete(`${base}/knowledge-base/topics/${topic.id}`), 409);
      expectEnvelope(await api.post(`${base}/merge`, { deploymentMessage: 'again' }), 409);
      // still readable
      expect(await api.topics(agent.agentId, branch.branchId)).toEqual([topic]);
      expect(await api.deployments(agent.agentId)).toHaveLength(1);
    });
  });

  describe('concurrency on one branch', () => {
    it('10 concurrent topic additions on one branch: all 10 are present', async () => {
      const agent = await api.createAgent();
      const branch = await api.createBranch(agent.agentId, 'busy');
      const results = await Promise.all(
        Array.from({ length: 10 }, (_, i) =>
          api.post(`/v1/agents/${agent.agentId}/branches/${branch.branchId}/knowledge-base/topics`, {
            name: `topic-${i}`,
            content: `content ${i}`,
            exampleQueries: { queries: [`q${i}`] },
          }),
        ),
      );
      expect(results.map((r) => r.status)).toEqual(Array(10).fill(201));
      const topics = await api.topics(agent.agentId, branch.branchId);
      expect(topics.map((t) => t.name).sort()).toEqual(Array.from({ length: 10 }, (_, i) => `topic-${i}`).sort());
      expect(new Set(topics.map((t) => t.id)).size).toBe(10);
    });

    it('10 concurrent branch creations with distinct names all land; with one name exactly one wins', async () => {
      const agent = await api.createAgent();
      const distinct = await Promise.all(
        Array.from({ length: 10 }, (_, i) =>
          api.post(`/v1/agents/${agent.agentId}/branches`, { branchName: `b-${i}` }),
        ),
      );
      for (const r of distinct) expect([200, 201]).toContain(r.status);
      const same = await Promise.all(
        Array.from({ length: 5 }, () => api.post(`/v1/agents/${agent.agentId}/branches`, { branchName: 'same' })),
      );
      expect(same.filter((r) => r.status === 200 || r.status === 201)).toHaveLength(1);
      expect(same.filter((r) => r.status === 409)).toHaveLength(4);
      const list = (await api.get(`/v1/agents/${agent.agentId}/branches`)).body.branches as Array<{
        branchName: string;
      }>;
      expect(list.map((b) => b.branchName).sort()).toEqual([
        'b-0',
        'b-1',
        'b-2',
        'b-3',
        'b-4',
        'b-5',
        'b-6',
        'b-7',
        'b-8',
        'b-9',
        'main',
        'same',
      ]);
      expect((await api.get(`/v1/agents/${agent.agentId}`)).body.branchCount).toBe(12);
    });
  });
});
