import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { AgentsClient, createAccount } from './helpers/agents-fixture';
import {
  buildAgent,
  eventually,
  startConversationsFixture,
  type ConversationsFixture,
} from './helpers/conversations-fixture';
import { expectEnvelope, request, startTestApp, type TestApp } from './helpers/test-app';
import { APP_PROCESS_TEST_TIMEOUT_MS } from './support/patience';

/*
 * Agent tests over HTTP (contract §19): test cases on branches (CRUD, 422 on main, merge and
 * conflicts like topics), a run on every merge and promotion against the new deployment, results
 * by id and by deployment, requireTestsPassing, test conversations invisible to the Conversations
 * API and to alert metrics, and a run that survives a restart of the app.
 */

const KB = [
  { name: 'Hours', content: 'We open at nine and close at five.', queries: ['when do you open', 'opening hours'] },
  {
    name: 'Human',
    content: 'Let me find a colleague.',
    queries: ['talk to a human', 'speak to a person'],
    actions: 'handoff destination=desk reason=asked',
  },
];

const hoursCase = (name = 'asks for hours') => ({
  name,
  turns: [
    { user: 'when do you open', expect: { topic: 'Hours', contains: 'nine', not_contains: 'closed' } },
    { user: 'talk to a human', expect: { handoff: true, actions: ['handoff'] } },
  ],
  state: { tier: 'gold' },
});

describe('Agent tests (over HTTP)', () => {
  let f: ConversationsFixture;
  let api: AgentsClient;
  let agentId: string;

  const tests = (branchId: string) => `/v1/agents/${agentId}/branches/${branchId}/tests`;
  const run = async (testRunId: string) => {
    const r = await api.get(`/v1/agents/${agentId}/test-runs/${testRunId}`);
    expect(r.status).toBe(200);
    return r.body;
  };
  const finished = (testRunId: string) =>
    eventually(async () => {
      const body = await run(testRunId);
      expect(body.status).not.toBe('running');
      return body;
    }, 20_000);

  beforeAll(async () => {
    f = await startConversationsFixture('Tested Co');
    api = f.api;
    agentId = await buildAgent(f, 'Tested', 'Hello', KB);
  }, 180_000);
  afterAll(async () => f?.close());

  describe('test cases on a branch', () => {
    it('POST 201 with the case; GET list and one; PATCH and DELETE 204', async () => {
      const branch = await api.createBranch(agentId, 'crud');
      const created = await api.post(tests(branch.branchId), hoursCase());
      expect(created.status).toBe(201);
      expect(created.body).toEqual({ id: expect.stringMatching(/^test_/), ...hoursCase() });
      const id = created.body.id;
      expect((await api.get(tests(branch.branchId))).body).toEqual([created.body]);
      expect((await api.get(`${tests(branch.branchId)}/${id}`)).body).toEqual(created.body);

      const patched = await api.patch(`${tests(branch.branchId)}/${id}`, { name: 'renamed' });
      expect(patched.status).toBe(204);
      expect((await api.get(`${tests(branch.branchId)}/${id}`)).body).toMatchObject({
        name: 'renamed',
        turns: hoursCase().turns,
      });
      expect((await api.delete(`${tests(branch.branchId)}/${id}`)).status).toBe(204);
      expect((await api.get(tests(branch.branchId))).body).toEqual([]);
      expectEnvelope(await api.get(`${tests(branch.branchId)}/${id}`), 404, 'TEST_NOT_FOUND');
      expectEnvelope(await api.patch(`${tests(branch.branchId)}/${id}`, { name: 'x' }), 404, 'TEST_NOT_FOUND');
    });

    it('a second case with the same name: 409; writes to main: 422; unknown branch: 404', async () => {
      const branch = await api.createBranch(agentId, 'dupes');
      expect((await api.post(tests(branch.branchId), hoursCase('twice'))).status).toBe(201);
      expectEnvelope(await api.post(tests(branch.branchId), hoursCase('twice')), 409, 'TEST_EXISTS');
      const main = expectEnvelope(await api.post(tests('main'), hoursCase('on main')), 422);
      expect(main.error).toMatch(/main cannot be updated directly/);
      expectEnvelope(await api.get(tests('BRANCH-nosuchbranch')), 404, 'BRANCH_NOT_FOUND');
    });

    it('hostile bodies answer 400 naming the field', async () => {
      const branch = await api.createBranch(agentId, 'hostile');
      const bad: Array<[unknown, RegExp]> = [
        [{ name: 'x' }, /turns/],
        [{ name: 'x', turns: [] }, /turns/],
        [{ name: 'x', turns: [{ user: 5 }] }, /user/],
        [{ name: 'x', turns: [{ user: 'hi', expect: { handoff: 'yes' } }] }, /handoff/],
        [{ name: 'x', turns: [{ user: 'hi', expect: { smells: 'nice' } }] }, /smells/],
        [{ name: 'x', turns: [{ user: 'hi' }], state: 'gold' }, /state/],
        [{ name: '', turns: [{ user: 'hi' }] }, /name/],
      ];
      for (const [body, field] of bad) {
        const r = await api.post(tests(branch.branchId), body);
        expect(expectEnvelope(r, 400).error).toMatch(field);
      }
    });

    it('merge like topics: a case changed on main and on the branch conflicts unless resolved', async () => {
      const agent = (await api.createAgent('Conflicted')).agentId;
      const path = (b: string) => `/v1/agents/${agent}/branches/${b}/tests`;
      const seed = await api.createBranch(agent, 'seed');
      await api.post(path(seed.branchId), { name: 'greets', turns: [{ user: 'hello' }] });
      await api.merge(agent, seed.branchId);
      const a = await api.createBranch(agent, 'a');
      const b = await api.createBranch(agent, 'b');
      const caseOn = async (branchId: string) => (await api.get(path(branchId))).body[0].id as string;
      await api.patch(`${path(a.branchId)}/${await caseOn(a.branchId)}`, { turns: [{ user: 'hello from a' }] });
      await api.patch(`${path(b.branchId)}/${await caseOn(b.branchId)}`, { turns: [{ user: 'hello from b' }] });
      await api.merge(agent, a.branchId);

      const refused = expectEnvelope(await api.post(`/v1/agents/${agent}/branches/${b.branchId}/merge`, {}), 400);
      expect(refused.error_code).toBe('MERGE_CONFLICT');
      expect(refused.data.conflicts).toEqual([
        {
          path: ['tests', 'greets'],
          ours: { name: 'greets', turns: [{ user: 'hello from a' }], state: {} },
          theirs: { name: 'greets', turns: [{ user: 'hello from b' }], state: {} },
          base: { name: 'greets', turns: [{ user: 'hello' }], state: {} },
        },
      ]);
      await api.merge(agent, b.branchId, {
        conflictResolutions: [{ path: ['tests', 'greets'], strategy: 'theirs' }],
      });
      expect((await api.get(path('main'))).body).toEqual([
        { id: expect.any(String), name: 'greets', turns: [{ user: 'hello from b' }], state: {} },
      ]);
    });
  });

  describe('runs', () => {
    it('a merge runs main’s suite against the new deployment: readable at once, then passed with every turn', async () => {
      const branch = await api.createBranch(agentId, 'suite-pass');
      await api.post(tests(branch.branchId), hoursCase());
      const merged = await api.merge(agentId, branch.branchId);
      expect(merged.testRunIds).toEqual([expect.stringMatching(/^tr_[a-z0-9]+$/)]);
      const [testRunId] = merged.testRunIds;
      const sandbox = (await api.active(agentId)).sandbox!;
      // readable as soon as it is handed out (contract §2)
      const first = await run(testRunId);
      expect(first).toMatchObject({ id: testRunId, deploymentId: sandbox.id, environment: 'sandbox' });
      expect(['running', 'passed']).toContain(first.status);

      const done = await finished(testRunId);
      expect(done).toEqual({
        id: testRunId,
        deploymentId: sandbox.id,
        environment: 'sandbox',
        status: 'passed',
        startedAt: expect.any(String),
        finishedAt: expect.any(String),
        summary: { passed: 1, failed: 0 },
        results: [
          {
            testId: expect.stringMatching(/^test_/),
            name: 'asks for hours',
            passed: true,
            turns: [
              {
                user: 'when do you open',
                response: 'We open at nine and close at five.',
                citedTopic: 'Hours',
                actions: [],
                failures: [],
              },
              {
                user: 'talk to a human',
                response: 'Let me find a colleague.',
                citedTopic: 'Human',
                actions: ['handoff'],
                failures: [],
              },
            ],
          },
        ],
      });
      const listed = await api.get(`/v1/agents/${agentId}/test-runs?deploymentId=${sandbox.id}`);
      expect(listed.status).toBe(200);
      expect(listed.body.testRuns).toEqual([done]);
    });

    it('a failing case fails the run with its reasons; requireTestsPassing then answers 409 TESTS_FAILING', async () => {
      const branch = await api.createBranch(agentId, 'suite-fail');
      await api.post(tests(branch.branchId), {
        name: 'wrong on purpose',
        turns: [
          { user: 'when do you open', expect: { topic: 'Human', contains: 'midnight' } },
          { user: 'what is the meaning of life', expect: { out_of_domain: false, end_conversation: true } },
        ],
      });
      const { testRunIds } = await api.merge(agentId, branch.branchId);
      const done = await finished(testRunIds[0]);
      expect(done.status).toBe('failed');
      expect(done.summary).toEqual({ passed: 1, failed: 1 });
      const failed = done.results.find((r: { name: string }) => r.name === 'wrong on purpose');
      expect(failed.passed).toBe(false);
      expect(failed.turns.map((t: { failures: string[] }) => t.failures)).toEqual([
        ['expected topic "Human", got "Hours"', 'expected the response to contain "midnight"'],
        ['did not expect an out-of-domain answer', 'expected the conversation to end'],
      ]);

      const sandbox = (await api.active(agentId)).sandbox!;
      const promote = (body: unknown) => api.post(`/v1/agents/${agentId}/deployments/${sandbox.id}/promote`, body);
      const refused = expectEnvelope(await promote({ requireTestsPassing: true }), 409, 'TESTS_FAILING');
      expect(refused.data).toEqual({ testRunId: testRunIds[0] });
      expect((await api.active(agentId))['pre-release']).toBeNull();
      expectEnvelope(await promote({ requireTestsPassing: 'yes' }), 400);
      // without the flag the promotion goes ahead, and runs the suite against the new deployment
      const promoted = await promote({});
      expect(promoted.status).toBe(200);
      expect(promoted.body.testRunIds).toEqual([expect.stringMatching(/^tr_/)]);
      const onPre = await finished(promoted.body.testRunIds[0]);
      expect(onPre).toMatchObject({ deploymentId: promoted.body.deployment.id, environment: 'pre-release' });
    });

    it('requireTestsPassing with a passing latest run promotes; unknown runs and deployments answer 404', async () => {
      const agent = (await api.createAgent('Passing')).agentId;
      const branch = await api.createBranch(agent, 'kb');
      await api.addTopic(agent, branch.branchId, {
        name: 'Hours',
        content: 'nine to five',
        queries: ['opening hours'],
      });
      await api.post(`/v1/agents/${agent}/branches/${branch.branchId}/tests`, {
        name: 'hours',
        turns: [{ user: 'opening hours', expect: { topic: 'Hours' } }],
      });
      const { testRunIds } = await api.merge(agent, branch.branchId);
      await eventually(async () => {
        expect((await api.get(`/v1/agents/${agent}/test-runs/${testRunIds[0]}`)).body.status).toBe('passed');
      }, 20_000);
      const sandbox = (await api.active(agent)).sandbox!;
      const r = await api.post(`/v1/agents/${agent}/deployments/${sandbox.id}/promote`, { requireTestsPassing: true });
      expect(r.status).toBe(200);
      expectEnvelope(await api.get(`/v1/agents/${agent}/test-runs/tr_nosuchrun`), 404, 'TEST_RUN_NOT_FOUND');
      // a run of another agent of the account is not this agent's
      expectEnvelope(await api.get(`/v1/agents/${agentId}/test-runs/${testRunIds[0]}`), 404, 'TEST_RUN_NOT_FOUND');
      expectEnvelope(
        await api.post(`/v1/agents/${agent}/deployments/nosuch/promote`, { requireTestsPassing: true }),
        404,
        'DEPLOYMENT_NOT_FOUND',
      );
    });

    it('another account’s key: 403 on its cases and runs', async () => {
      const other = await createAccount(f.t, 'Other Co');
      const stranger = new AgentsClient(f.t, other);
      const [latest] = (await api.get(`/v1/agents/${agentId}/test-runs`)).body.testRuns;
      expect((await stranger.get(`/v1/agents/${agentId}/test-runs/${latest.id}`)).status).toBe(403);
      expect((await stranger.get(`/v1/agents/${agentId}/test-runs`)).status).toBe(403);
      expect((await stranger.post(tests('main'), hoursCase())).status).toBe(403);
    });

    it('test conversations are listed by no API and count in no alert metric', async () => {
      const runs = (await api.get(`/v1/agents/${agentId}/test-runs`)).body.testRuns;
      expect(runs.length).toBeGreaterThan(0);
      for (const r of runs) await finished(r.id);
      const listed = await request(`${f.t.url}/v3/${f.accountId}/${agentId}/conversations`, {
        headers: { 'x-api-key': f.adminKey },
      });
      expect(listed.status).toBe(200);
      expect(listed.body.conversations).toEqual([]);

      const rule = await request(`${f.t.url}/v1/alert-rules`, {
        body: {
          name: 'volume',
          project_id: agentId,
          metric: 'call_volume',
          operator: '>=',
          threshold_value: 1,
          window_duration: '60m',
        },
        headers: { 'x-api-key': f.adminKey },
      });
      expect(rule.status).toBe(201);
      const evaluated = await request(`${f.t.url}/admin/v1/alerts/evaluate`, {
        method: 'POST',
        body: {},
        headers: { 'x-operator-token': f.t.operatorToken },
      });
      expect(evaluated.status).toBe(200);
      const after = await request(`${f.t.url}/v1/alert-rules/${rule.body.id}`, {
        headers: { 'x-api-key': f.adminKey },
      });
      expect(after.body.current_state).toBe('no_data');
    });
  });
});

describe('Agent tests: a run survives a restart of the app', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'parley-test-runs-'));
  // a pause between cases keeps the run going long enough to stop the app in the middle of it
  const env = { TEST_RUN_CASE_PAUSE_MS: '700' };
  let t: TestApp | null = null;
  afterAll(async () => {
    await t?.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it(
    'stops mid-run, starts again on the same data, and the run finishes with each case once',
    async () => {
      t = await startTestApp(env, dir);
      const account = await createAccount(t, 'Restart Co');
      const api = new AgentsClient(t, account);
      const agent = (await api.createAgent('Durable')).agentId;
      const branch = await api.createBranch(agent, 'kb');
      await api.addTopic(agent, branch.branchId, {
        name: 'Hours',
        content: 'nine to five',
        queries: ['opening hours'],
      });
      const CASES = 6;
      for (let i = 0; i < CASES; i++)
        await api.post(`/v1/agents/${agent}/branches/${branch.branchId}/tests`, {
          name: `case ${i}`,
          turns: [{ user: 'opening hours', expect: { topic: 'Hours' } }],
        });
      const [testRunId] = (await api.merge(agent, branch.branchId)).testRunIds;
      const runPath = `/v1/agents/${agent}/test-runs/${testRunId}`;
      const midway = await eventually(async () => {
        const body = (await api.get(runPath)).body;
        expect(body.results.length).toBeGreaterThan(0);
        return body;
      }, 20_000);
      await t.close();
      t = null;
      expect(midway.status).toBe('running');
      expect(midway.results.length).toBeLessThan(CASES);

      t = await startTestApp(env, dir);
      const again = new AgentsClient(t, account);
      const done = await eventually(async () => {
        const body = (await again.get(runPath)).body;
        expect(body.status).toBe('passed');
        return body;
      }, 30_000);
      expect(done.summary).toEqual({ passed: CASES, failed: 0 });
      expect(done.results.map((r: { name: string }) => r.name)).toEqual(
        Array.from({ length: CASES }, (_, i) => `case ${i}`),
      );
    },
    APP_PROCESS_TEST_TIMEOUT_MS,
  );
});
