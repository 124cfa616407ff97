import { AgentsClient, startAgentsFixture, type AgentsFixture, type Deployment } from './helpers/agents-fixture';
import { expectEnvelope, UUID } from './helpers/test-app';

/*
 * Merge, deployments, promote and rollback over HTTP (interface.md "Agent environments and
 * deployments", "Deployment", "Agents API"; contract §5), and concurrent merges.
 */

const ISO_MS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

describe('Agents API: merge and deployments (over HTTP)', () => {
  let fx: AgentsFixture;
  let api: AgentsClient;
  beforeAll(async () => {
    fx = await startAgentsFixture();
    api = fx.api;
  });
  afterAll(async () => fx?.close());

  /** An agent whose main holds behavior "v1" and topics hours + refunds, sandbox deployment at version 1. */
  async function seededAgent(name = 'Seeded') {
    const agent = await api.createAgent(name);
    await api.shipChange(agent.agentId, 'seed', async (b) => {
      await api.setBehavior(agent.agentId, b, 'v1');
      await api.addTopic(agent.agentId, b, { name: 'hours', content: 'open 9-5' });
      await api.addTopic(agent.agentId, b, { name: 'refunds', content: 'within 30 days' });
    });
    const [sandbox] = await api.deployments(agent.agentId, 'sandbox');
    return { agentId: agent.agentId, sandbox };
  }

  const mainTopics = async (agentId: string) =>
    Object.fromEntries((await api.topics(agentId, 'main')).map((t) => [t.name, t.content]));

  describe('merge', () => {
    it('answers 200 {sequence, message, testRunIds: [tr_<id>]}, applies the branch to main and publishes a sandbox deployment', async () => {
      const agent = await api.createAgent();
      expect(await api.active(agent.agentId)).toEqual({ sandbox: null, 'pre-release': null, live: null });
      const branch = await api.createBranch(agent.agentId, 'first');
      await api.setBehavior(agent.agentId, branch.branchId, 'Be kind.');
      const topic = await api.addTopic(agent.agentId, branch.branchId, { name: 'hours', content: 'open 9-5' });

      const r = await api.post(`/v1/agents/${agent.agentId}/branches/${branch.branchId}/merge`, {
        deploymentMessage: 'first release',
      });
      expect(r.status).toBe(200);
      expect(r.body).toEqual({ sequence: '1', message: 'first release', testRunIds: [expect.stringMatching(/^tr_/)] });

      expect(await api.behavior(agent.agentId, 'main')).toBe('Be kind.');
      const main = await api.topics(agent.agentId, 'main');
      expect(main).toHaveLength(1);
      expect(main[0]).toMatchObject({
        name: 'hours',
        content: 'open 9-5',
        exampleQueries: topic.exampleQueries,
        isActive: true,
      });

      const active = await api.active(agent.agentId);
      expect(active['pre-release']).toBeNull();
      expect(active.live).toBeNull();
      expect(active.sandbox).toEqual({
        id: expect.stringMatching(UUID),
        accountId: fx.account.accountId,
        agentId: agent.agentId,
        environment: 'sandbox',
        version: 1,
        artifactVersion: expect.any(Number),
        createdBy: fx.account.keyId,
        createdAt: expect.stringMatching(ISO_MS),
        message: 'first release',
      });
      expect(await api.deployments(agent.agentId)).toEqual([active.sandbox]);
    });

    it('the sequence increments with each merge', async () => {
      const agent = await api.createAgent();
      const m1 = await api.shipChange(agent.agentId, 'one', (b) => api.setBehavior(agent.agentId, b, 'one'));
      const m2 = await api.shipChange(agent.agentId, 'two', (b) => api.setBehavior(agent.agentId, b, 'two'));
      const m3 = await api.shipChange(agent.agentId, 'three', (b) => api.addTopic(agent.agentId, b, { name: 'x' }));
      expect([m1.sequence, m2.sequence, m3.sequence]).toEqual(['1', '2', '3']);
      const versions = (await api.deployments(agent.agentId, 'sandbox')).map((d) => d.version);
      expect(versions).toEqual([3, 2, 1]);
    });

    it('a merge applies topic edits and removals; main only changes through the merge', async () => {
      const { agentId } = await seededAgent();
      const branch = await api.createBranch(agentId, 'edit');
      const hours = (await api.topicByName(agentId, branch.branchId, 'hours'))!;
      const refunds = (await api.topicByName(agentId, branch.branchId, 'refunds'))!;
      await api.editTopic(agentId, branch.branchId, hours.id, { content: 'open 8-6' });
      await api.removeTopic(agentId, branch.branchId, refunds.id);
      expect(await mainTopics(agentId)).toEqual({ hours: 'open 9-5', refunds: 'within 30 days' });
      await api.merge(agentId, branch.branchId);
      expect(await mainTopics(agentId)).toEqual({ hours: 'open 8-6' });
    });

    it('after a branch edit the sandbox deployment keeps serving the old content until the merge', async () => {
      const { agentId, sandbox } = await seededAgent();
      const branch = await api.createBranch(agentId, 'pending');
      await api.setBehavior(agentId, branch.branchId, 'v2');
      const hours = (await api.topicByName(agentId, branch.branchId, 'hours'))!;
      await api.editTopic(agentId, branch.branchId, hours.id, { content: 'open 24/7' });
      await api.addTopic(agentId, branch.branchId, { name: 'parking', content: 'free' });

      // before the merge: main and the active sandbox deployment are as they were
      expect(await api.behavior(agentId, 'main')).toBe('v1');
      expect(await mainTopics(agentId)).toEqual({ hours: 'open 9-5', refunds: 'within 30 days' });
      expect((await api.active(agentId)).sandbox).toEqual(sandbox);
      expect(await api.deployments(agentId)).toEqual([sandbox]);

      const merged = await api.merge(agentId, branch.branchId, { deploymentMessage: 'v2' });
      expect(merged.sequence).toBe('2');
      expect(await api.behavior(agentId, 'main')).toBe('v2');
      expect(await mainTopics(agentId)).toEqual({ hours: 'open 24/7', refunds: 'within 30 days', parking: 'free' });
      const active = (await api.active(agentId)).sandbox!;
      expect(active.id).not.toBe(sandbox.id);
      expect(active).toMatchObject({ environment: 'sandbox', version: 2, message: 'v2' });
      // the earlier deployment still exists, unchanged, at its version
      expect(await api.deployments(agentId, 'sandbox')).toEqual([active, sandbox]);
    });

    it('a merge with nothing changed still publishes a new sandbox deployment', async () => {
      const { agentId, sandbox } = await seededAgent();
      const r = await api.shipChange(agentId, 'noop', async () => undefined);
      expect(r.sequence).toBe('2');
      const active = (await api.active(agentId)).sandbox!;
      expect(active.id).not.toBe(sandbox.id);
      expect(active.version).toBe(2);
    });

    it('merging an unknown branch answers 404', async () => {
      const agent = await api.createAgent();
      expectEnvelope(await api.post(`/v1/agents/${agent.agentId}/branches/BRANCH-nope/merge`, {}), 404);
    });

    it('a merge without a body is accepted (deploymentMessage is optional)', async () => {
      const agent = await api.createAgent();
      const branch = await api.createBranch(agent.agentId, 'quiet');
      const r = await api.post(`/v1/agents/${agent.agentId}/branches/${branch.branchId}/merge`);
      expect(r.status).toBe(200);
      expect(r.body).toMatchObject({ sequence: '1', testRunIds: [expect.stringMatching(/^tr_/)] });
      expect(typeof r.body.message).toBe('string');
    });
  });

  describe('merge conflicts', () => {
    /** Two branches cut from the seeded main; `onMain` is merged first, then the returned branch conflicts or not. */
    async function diverge(
      onMain: (agentId: string, branchId: string) => Promise<unknown>,
      onBranch: (agentId: string, branchId: string) => Promise<unknown>,
    ) {
      const { agentId, sandbox } = await seededAgent();
      const first = await api.createBranch(agentId, 'first');
      const second = await api.createBranch(agentId, 'second');
      await onMain(agentId, first.branchId);
      await api.merge(agentId, first.branchId);
      await onBranch(agentId, second.branchId);
      return { agentId, branchId: second.branchId, sandbox };
    }
    const topicId = async (agentId: string, branchId: string, name: string) =>
      (await api.topicByName(agentId, branchId, name))!.id;

    async function expectConflict(
      agentId: string,
      branchId: string,
      body: Record<string, unknown> = { deploymentMessage: 'conflicting' },
    ) {
      const before = {
        deployments: await api.deployments(agentId),
        behavior: await api.behavior(agentId, 'main'),
        topics: await api.topics(agentId, 'main'),
      };
      const r = await api.post(`/v1/agents/${agentId}/branches/${branchId}/merge`, body);
      const envelope = expectEnvelope(r, 400, 'MERGE_CONFLICT');
      expect(Array.isArray(envelope.data?.conflicts)).toBe(true);
      for (const c of envelope.data.conflicts) {
        expect(Object.keys(c).sort()).toEqual(['base', 'ours', 'path', 'theirs']);
        expect(Array.isArray(c.path)).toBe(true);
      }
      // nothing happened: no deployment, main unchanged, the branch still open
      expect(await api.deployments(agentId)).toEqual(before.deployments);
      expect(await api.behavior(agentId, 'main')).toBe(before.behavior);
      expect(await api.topics(agentId, 'main')).toEqual(before.topics);
      const branches = (await api.get(`/v1/agents/${agentId}/branches`)).body.branches as Array<{
        branchId: string;
        status: string;
      }>;
      expect(branches.find((b) => b.branchId === branchId)!.status).toBe('open');
      return envelope.data.conflicts as Array<{ path: string[]; ours: unknown; theirs: unknown; base: unknown }>;
    }

    it('behavior changed differently on both sides: 400 MERGE_CONFLICT with data.conflicts [{path, ours, theirs, base}]', async () => {
      const { agentId, branchId } = await diverge(
        (a, b) => api.setBehavior(a, b, 'main says'),
        (a, b) => api.setBehavior(a, b, 'branch says'),
      );
      expect(await expectConflict(agentId, branchId)).toEqual([
        { path: ['behavior'], ours: 'main says', theirs: 'branch says', base: 'v1' },
      ]);
    });

    it('the same topic changed differently on both sides', async () => {
      const { agentId, branchId } = await diverge(
        async (a, b) => api.editTopic(a, b, await topicId(a, b, 'hours'), { content: 'main hours' }),
        async (a, b) => api.editTopic(a, b, await topicId(a, b, 'hours'), { content: 'branch hours' }),
      );
      const conflicts = await expectConflict(agentId, branchId);
      expect(conflicts).toHaveLength(1);
      expect(conflicts[0].path).toEqual(['topics', 'hours']);
      expect(conflicts[0].ours).toMatchObject({ content: 'main hours' });
      expect(conflicts[0].theirs).toMatchObject({ content: 'branch hours' });
      expect(conflicts[0].base).toMatchObject({ content: 'open 9-5' });
    });

    it('a topic deleted on main and edited on the branch', async () => {
      const { agentId, branchId } = await diverge(
        async (a, b) => api.removeTopic(a, b, await topicId(a, b, 'hours')),
        async (a, b) => api.editTopic(a, b, await topicId(a, b, 'hours'), { content: 'branch hours' }),
      );
      const conflicts = await expectConflict(agentId, branchId);
      expect(conflicts).toHaveLength(1);
      expect(conflicts[0].path).toEqual(['topics', 'hours']);
      expect(conflicts[0].ours ?? null).toBeNull();
      expect(conflicts[0].theirs).toMatchObject({ content: 'branch hours' });
    });

    it('a topic edited on main and deleted on the branch', async () => {
      const { agentId, branchId } = await diverge(
        async (a, b) => api.editTopic(a, b, await topicId(a, b, 'hours'), { content: 'main hours' }),
        async (a, b) => api.removeTopic(a, b, await topicId(a, b, 'hours')),
      );
      const conflicts = await expectConflict(agentId, branchId);
      expect(conflicts).toHaveLength(1);
      expect(conflicts[0].ours).toMatchObject({ content: 'main hours' });
      expect(conflicts[0].theirs ?? null).toBeNull();
    });

    it('a topic added on both sides with the same name and different content', async () => {
      const { agentId, branchId } = await diverge(
        (a, b) => api.addTopic(a, b, { name: 'parking', content: 'main parking' }),
        (a, b) => api.addTopic(a, b, { name: 'parking', content: 'branch parking' }),
      );
      const conflicts = await expectConflict(agentId, branchId);
      expect(conflicts).toHaveLength(1);
      expect(conflicts[0].path).toEqual(['topics', 'parking']);
      expect(conflicts[0].ours).toMatchObject({ content: 'main parking' });
      expect(conflicts[0].theirs).toMatchObject({ content: 'branch parking' });
      expect(conflicts[0].base ?? null).toBeNull();
    });

    it('identical changes on both sides are not conflicts', async () => {
      const { agentId, branchId } = await diverge(
        async (a, b) => {
          await api.setBehavior(a, b, 'same');
          await api.addTopic(a, b, { name: 'parking', content: 'same parking' });
          await api.editTopic(a, b, await topicId(a, b, 'hours'), { content: 'same hours' });
        },
        async (a, b) => {
          await api.setBehavior(a, b, 'same');
          await api.addTopic(a, b, { name: 'parking', content: 'same parking' });
          await api.editTopic(a, b, await topicId(a, b, 'hours'), { content: 'same hours' });
        },
      );
      const r = await api.merge(agentId, branchId);
      expect(r.sequence).toBe('3');
      expect(await api.behavior(agentId, 'main')).toBe('same');
      expect(await mainTopics(agentId)).toEqual({
        hours: 'same hours',
        refunds: 'within 30 days',
        parking: 'same parking',
      });
    });

    it('conflictResolutions settle them: ours, theirs, base and an explicit value', async () => {
      const { agentId, branchId } = await diverge(
        async (a, b) => {
          await api.setBehavior(a, b, 'main says');
          await api.editTopic(a, b, await topicId(a, b, 'hours'), { content: 'main hours' });
          await api.editTopic(a, b, await topicId(a, b, 'refunds'), { content: 'main refunds' });
          await api.addTopic(a, b, { name: 'parking', content: 'main parking' });
        },
        async (a, b) => {
          await api.setBehavior(a, b, 'branch says');
          await api.editTopic(a, b, await topicId(a, b, 'hours'), { content: 'branch hours' });
          await api.editTopic(a, b, await topicId(a, b, 'refunds'), { content: 'branch refunds' });
          await api.addTopic(a, b, { name: 'parking', content: 'branch parking' });
          await api.addTopic(a, b, { name: 'wifi', content: 'no conflict here' });
        },
      );
      const conflicts = await expectConflict(agentId, branchId);
      expect(conflicts.map((c) => c.path.join('/')).sort()).toEqual([
        'behavior',
        'topics/hours',
        'topics/parking',
        'topics/refunds',
      ]);

      // settling only some of them still conflicts, on the rest
      const partial = await expectConflict(agentId, branchId, {
        conflictResolutions: [{ path: ['behavior'], strategy: 'theirs' }],
      });
      expect(partial.map((c) => c.path.join('/')).sort()).toEqual(['topics/hours', 'topics/parking', 'topics/refunds']);

      const r = await api.post(`/v1/agents/${agentId}/branches/${branchId}/merge`, {
        deploymentMessage: 'resolved',
        conflictResolutions: [
          { path: ['behavior'], strategy: 'theirs' },
          { path: ['topics', 'hours'], strategy: 'ours' },
          { path: ['topics', 'refunds'], strategy: 'base' },
          {
            path: ['topics', 'parking'],
            strategy: 'theirs',
            value: { name: 'parking', content: 'hand merged parking', exampleQueries: { queries: ['where to park'] } },
          },
        ],
      });
      expect(r.status).toBe(200);
      expect(r.body).toEqual({ sequence: '3', message: 'resolved', testRunIds: [expect.stringMatching(/^tr_/)] });
      expect(await api.behavior(agentId, 'main')).toBe('branch says');
      expect(await mainTopics(agentId)).toEqual({
        hours: 'main hours',
        refunds: 'within 30 days',
        parking: 'hand merged parking',
        wifi: 'no conflict here',
      });
      expect((await api.active(agentId)).sandbox).toMatchObject({ version: 3, message: 'resolved' });
    });

    it('an explicit value settles a behavior conflict', async () => {
      const { agentId, branchId } = await diverge(
        (a, b) => api.setBehavior(a, b, 'main says'),
        (a, b) => api.setBehavior(a, b, 'branch says'),
      );
      await api.merge(agentId, branchId, {
        conflictResolutions: [{ path: ['behavior'], strategy: 'ours', value: 'both say' }],
      });
      expect(await api.behavior(agentId, 'main')).toBe('both say');
    });

    it('two branches merged one after the other: the second sees the first', async () => {
      const { agentId } = await seededAgent();
      const a = await api.createBranch(agentId, 'a');
      const b = await api.createBranch(agentId, 'b');
      const c = await api.createBranch(agentId, 'c');
      await api.setBehavior(agentId, a.branchId, 'from a');
      await api.setBehavior(agentId, b.branchId, 'from b');
      await api.addTopic(agentId, c.branchId, { name: 'parking', content: 'from c' });
      expect((await api.merge(agentId, a.branchId)).sequence).toBe('2');
      // b changed the same item differently: conflicts with a's merge as ours
      expect(await expectConflict(agentId, b.branchId)).toEqual([
        { path: ['behavior'], ours: 'from a', theirs: 'from b', base: 'v1' },
      ]);
      // c changed something else: merges cleanly and main keeps a's change
      expect((await api.merge(agentId, c.branchId)).sequence).toBe('3');
      expect(await api.behavior(agentId, 'main')).toBe('from a');
      expect(await mainTopics(agentId)).toEqual({ hours: 'open 9-5', refunds: 'within 30 days', parking: 'from c' });
    });
  });

  describe('deployments', () => {
    it('GET deployments lists newest first, filtered by ?environment=', async () => {
      const { agentId, sandbox: d1 } = await seededAgent();
      await api.shipChange(agentId, 'two', (b) => api.setBehavior(agentId, b, 'v2'));
      const [d2] = await api.deployments(agentId, 'sandbox');
      const pre = await api.promote(agentId, d1.id, 'pre-release');
      const all = await api.deployments(agentId);
      expect(all.map((d) => d.id)).toEqual([pre.id, d2.id, d1.id]);
      expect((await api.deployments(agentId, 'sandbox')).map((d) => d.id)).toEqual([d2.id, d1.id]);
      expect((await api.deployments(agentId, 'pre-release')).map((d) => d.id)).toEqual([pre.id]);
      expect(await api.deployments(agentId, 'live')).toEqual([]);
      const created = all.map((d) => Date.parse(d.createdAt));
      expect([...created].sort((x, y) => y - x)).toEqual(created);
    });

    it('an unknown ?environment= answers 400 naming it', async () => {
      const agent = await api.createAgent();
      const envelope = expectEnvelope(
        await api.get(`/v1/agents/${agent.agentId}/deployments?environment=production`),
        400,
      );
      expect(envelope.error_message).toContain('environment');
    });

    it('GET deployments/active: each environment null or a full deployment object', async () => {
      const { agentId, sandbox } = await seededAgent();
      const r = await api.get(`/v1/agents/${agentId}/deployments/active`);
      expect(r.status).toBe(200);
      expect(Object.keys(r.body.activeDeployments).sort()).toEqual(['live', 'pre-release', 'sandbox']);
      expect(r.body.activeDeployments).toEqual({ sandbox, 'pre-release': null, live: null });
    });
  });

  describe('promote', () => {
    it('target omitted: sandbox → pre-release → live; 200 {deployment, testRunIds: [tr_<id>]}; the version stays the same', async () => {
      const { agentId, sandbox } = await seededAgent();
      const r1 = await api.post(`/v1/agents/${agentId}/deployments/${sandbox.id}/promote`, {});
      expect(r1.status).toBe(200);
      expect(r1.body).toEqual({
        deployment: {
          id: expect.stringMatching(UUID),
          accountId: fx.account.accountId,
          agentId,
          environment: 'pre-release',
          version: sandbox.version,
          artifactVersion: expect.any(Number),
          createdBy: fx.account.keyId,
          createdAt: expect.stringMatching(ISO_MS),
          message: expect.any(String),
        },
        testRunIds: [expect.stringMatching(/^tr_/)],
      });
      const pre: Deployment = r1.body.deployment;
      expect(pre.id).not.toBe(sandbox.id);
      expect(await api.active(agentId)).toEqual({ sandbox, 'pre-release': pre, live: null });

      const r2 = await api.post(`/v1/agents/${agentId}/deployments/${pre.id}/promote`);
      expect(r2.status).toBe(200);
      const live: Deployment = r2.body.deployment;
      expect(r2.body.testRunIds).toEqual([expect.stringMatching(/^tr_/)]);
      expect(r2.body.testRunIds).not.toEqual(r1.body.testRunIds);
      expect(live).toMatchObject({ environment: 'live', version: sandbox.version });
      expect(new Set([sandbox.id, pre.id, live.id]).size).toBe(3);
      expect(await api.active(agentId)).toEqual({ sandbox, 'pre-release': pre, live });
    });

    it('explicit targets: sandbox → pre-release, then pre-release → live', async () => {
      const { agentId, sandbox } = await seededAgent();
      const pre = await api.promote(agentId, sandbox.id, 'pre-release');
      expect(pre).toMatchObject({ environment: 'pre-release', version: 1 });
      const live = await api.promote(agentId, pre.id, 'live');
      expect(live).toMatchObject({ environment: 'live', version: 1 });
    });

    it('sandbox → live directly is allowed; pre-release stays empty', async () => {
      const { agentId, sandbox } = await seededAgent();
      const live = await api.promote(agentId, sandbox.id, 'live');
      expect(live).toMatchObject({ environment: 'live', version: 1 });
      expect(await api.active(agentId)).toEqual({ sandbox, 'pre-release': null, live });
    });

    it('promoting to the same or an earlier stage answers 422; live has no next stage (422)', async () => {
      const { agentId, sandbox } = await seededAgent();
      const pre = await api.promote(agentId, sandbox.id, 'pre-release');
      const live = await api.promote(agentId, pre.id, 'live');
      const promote = (id: string, body: unknown) => api.post(`/v1/agents/${agentId}/deployments/${id}/promote`, body);
      expectEnvelope(await promote(pre.id, { targetEnvironment: 'pre-release' }), 422);
      expectEnvelope(await promote(live.id, { targetEnvironment: 'live' }), 422);
      expectEnvelope(await promote(live.id, { targetEnvironment: 'pre-release' }), 422);
      expectEnvelope(await promote(live.id, {}), 422);
      // nothing was created
      expect(await api.deployments(agentId)).toHaveLength(3);
      expect(await api.active(agentId)).toEqual({ sandbox, 'pre-release': pre, live });
    });

    it('targetEnvironment sandbox (same or earlier stage, outside the documented values) is refused with 422 or 400', async () => {
      // contract §5: same/earlier stage → 422; interface.md lists only pre-release and live as values (§2: unknown enum → 400)
      const { agentId, sandbox } = await seededAgent();
      const pre = await api.promote(agentId, sandbox.id, 'pre-release');
      for (const id of [sandbox.id, pre.id]) {
        const r = await api.post(`/v1/agents/${agentId}/deployments/${id}/promote`, { targetEnvironment: 'sandbox' });
        expect([400, 422]).toContain(r.status);
        expectEnvelope(r, r.status);
      }
      expect(await api.deployments(agentId)).toHaveLength(2);
    });

    it('an unknown deployment answers 404 DEPLOYMENT_NOT_FOUND', async () => {
      const { agentId } = await seededAgent();
      expectEnvelope(
        await api.post(`/v1/agents/${agentId}/deployments/00000000-0000-4000-8000-000000000000/promote`, {}),
        404,
        'DEPLOYMENT_NOT_FOUND',
      );
    });

    it('a deployment of another agent is unknown here (404)', async () => {
      const one = await seededAgent('one');
      const two = await seededAgent('two');
      expectEnvelope(
        await api.post(`/v1/agents/${two.agentId}/deployments/${one.sandbox.id}/promote`, {}),
        404,
        'DEPLOYMENT_NOT_FOUND',
      );
      expectEnvelope(
        await api.post(`/v1/agents/${two.agentId}/deployments/${one.sandbox.id}/rollback`, {}),
        404,
        'DEPLOYMENT_NOT_FOUND',
      );
    });

    it('a bad targetEnvironment answers 400 naming the field', async () => {
      const { agentId, sandbox } = await seededAgent();
      for (const targetEnvironment of ['production', 7]) {
        const envelope = expectEnvelope(
          await api.post(`/v1/agents/${agentId}/deployments/${sandbox.id}/promote`, { targetEnvironment }),
          400,
        );
        expect(envelope.error_message).toContain('targetEnvironment');
      }
      const unknown = expectEnvelope(
        await api.post(`/v1/agents/${agentId}/deployments/${sandbox.id}/promote`, { target: 'live' }),
        400,
      );
      expect(unknown.error_message).toContain('target');
    });

    it('promoting an older deployment keeps its version, whatever main holds now', async () => {
      const { agentId, sandbox } = await seededAgent();
      await api.shipChange(agentId, 'two', (b) => api.setBehavior(agentId, b, 'v2'));
      const live = await api.promote(agentId, sandbox.id, 'live');
      expect(live.version).toBe(1);
      expect((await api.active(agentId)).sandbox!.version).toBe(2);
    });
  });

  describe('rollback', () => {
    it('makes an earlier deployment of its environment active again: 200 {deployment, testRunIds: []}', async () => {
      const { agentId, sandbox: d1 } = await seededAgent();
      await api.shipChange(agentId, 'two', (b) => api.setBehavior(agentId, b, 'v2'));
      const d2 = (await api.active(agentId)).sandbox!;
      expect(d2.id).not.toBe(d1.id);

      const r = await api.post(`/v1/agents/${agentId}/deployments/${d1.id}/rollback`, {
        deploymentMessage: 'v2 was bad',
      });
      expect(r.status).toBe(200);
      expect(r.body.testRunIds).toEqual([]);
      expect(r.body.deployment).toMatchObject({ environment: 'sandbox', version: d1.version });
      const active = await api.active(agentId);
      expect(active.sandbox).toMatchObject({ id: d1.id, version: 1 });
      expect(active['pre-release']).toBeNull();
      expect(active.live).toBeNull();
      // main itself does not move: a rollback is about what an environment serves
      expect(await api.behavior(agentId, 'main')).toBe('v2');
    });

    it('rolls back live without touching sandbox', async () => {
      const { agentId, sandbox: d1 } = await seededAgent();
      const live1 = await api.promote(agentId, d1.id, 'live');
      await api.shipChange(agentId, 'two', (b) => api.setBehavior(agentId, b, 'v2'));
      const d2 = (await api.active(agentId)).sandbox!;
      const live2 = await api.promote(agentId, d2.id, 'live');
      expect((await api.active(agentId)).live!.id).toBe(live2.id);
      const r = await api.post(`/v1/agents/${agentId}/deployments/${live1.id}/rollback`, {});
      expect(r.status).toBe(200);
      const active = await api.active(agentId);
      expect(active.live).toMatchObject({ id: live1.id, version: 1 });
      expect(active.sandbox!.id).toBe(d2.id);
    });

    it('the deployment already active answers 409; an unknown one 404 DEPLOYMENT_NOT_FOUND', async () => {
      const { agentId, sandbox: d1 } = await seededAgent();
      expectEnvelope(await api.post(`/v1/agents/${agentId}/deployments/${d1.id}/rollback`, {}), 409);
      await api.shipChange(agentId, 'two', (b) => api.setBehavior(agentId, b, 'v2'));
      expect((await api.post(`/v1/agents/${agentId}/deployments/${d1.id}/rollback`)).status).toBe(200);
      expectEnvelope(await api.post(`/v1/agents/${agentId}/deployments/${d1.id}/rollback`, {}), 409);
      expectEnvelope(
        await api.post(`/v1/agents/${agentId}/deployments/00000000-0000-4000-8000-000000000000/rollback`, {}),
        404,
        'DEPLOYMENT_NOT_FOUND',
      );
      expect((await api.active(agentId)).sandbox!.id).toBe(d1.id);
    });

    it('a rollback body with an unknown field answers 400', async () => {
      const { agentId, sandbox } = await seededAgent();
      const envelope = expectEnvelope(
        await api.post(`/v1/agents/${agentId}/deployments/${sandbox.id}/rollback`, { to: 'yesterday' }),
        400,
      );
      expect(envelope.error_message).toContain('to');
    });
  });

  describe('Idempotency-Key (contract §2)', () => {
    it('a repeated agent creation with the same key and body returns the first response and creates nothing', async () => {
      const headers = { 'idempotency-key': `agent-${Date.now()}` };
      const body = { name: 'Once', responseSettings: { greeting: 'Hi' } };
      const first = await api.call('POST', `/v1/accounts/${fx.account.accountId}/agents`, body, headers);
      const again = await api.call('POST', `/v1/accounts/${fx.account.accountId}/agents`, body, headers);
      expect(first.status).toBe(200);
      expect(again.status).toBe(200);
      expect(again.body).toEqual(first.body);
      const list = (await api.get(`/v1/accounts/${fx.account.accountId}/agents`)).body as Array<{
        agentId: string;
        agentName: string;
      }>;
      expect(list.filter((a) => a.agentId === first.body.agentId)).toHaveLength(1);
      expectEnvelope(
        await api.call('POST', `/v1/accounts/${fx.account.accountId}/agents`, { ...body, name: 'Twice' }, headers),
        409,
      );
    });

    it('a repeated merge with the same key returns the first response and publishes one deployment', async () => {
      const { agentId } = await seededAgent();
      const branch = await api.createBranch(agentId, 'idem');
      await api.setBehavior(agentId, branch.branchId, 'v2');
      const headers = { 'idempotency-key': `merge-${Date.now()}` };
      const first = await api.call(
        'POST',
        `/v1/agents/${agentId}/branches/${branch.branchId}/merge`,
        { deploymentMessage: 'once' },
        headers,
      );
      const again = await api.call(
        'POST',
        `/v1/agents/${agentId}/branches/${branch.branchId}/merge`,
        { deploymentMessage: 'once' },
        headers,
      );
      expect(first).toMatchObject({ status: 200, body: { sequence: '2' } });
      expect(again.status).toBe(200);
      expect(again.body).toEqual(first.body);
      expect(await api.deployments(agentId, 'sandbox')).toHaveLength(2);
    });
  });

  describe('concurrent merges', () => {
    it('two merges of different branches at once: both land, no update is lost, two sandbox deployments', async () => {
      const { agentId, sandbox } = await seededAgent();
      const a = await api.createBranch(agentId, 'a');
      const b = await api.createBranch(agentId, 'b');
      await api.setBehavior(agentId, a.branchId, 'from a');
      await api.addTopic(agentId, a.branchId, { name: 'from-a', content: 'A' });
      const refunds = (await api.topicByName(agentId, b.branchId, 'refunds'))!;
      await api.editTopic(agentId, b.branchId, refunds.id, { content: 'from b' });
      await api.addTopic(agentId, b.branchId, { name: 'from-b', content: 'B' });

      const [ra, rb] = await Promise.all([
        api.post(`/v1/agents/${agentId}/branches/${a.branchId}/merge`, { deploymentMessage: 'a' }),
        api.post(`/v1/agents/${agentId}/branches/${b.branchId}/merge`, { deploymentMessage: 'b' }),
      ]);
      expect([ra.status, rb.status]).toEqual([200, 200]);
      expect([ra.body.sequence, rb.body.sequence].sort()).toEqual(['2', '3']);

      expect(await api.behavior(agentId, 'main')).toBe('from a');
      expect(await mainTopics(agentId)).toEqual({ hours: 'open 9-5', refunds: 'from b', 'from-a': 'A', 'from-b': 'B' });
      const sandboxes = await api.deployments(agentId, 'sandbox');
      expect(sandboxes).toHaveLength(3);
      expect(sandboxes.map((d) => d.version)).toEqual([3, 2, 1]);
      expect(sandboxes[2].id).toBe(sandbox.id);
      expect((await api.active(agentId)).sandbox!.version).toBe(3);
      expect(
        (await api.get(`/v1/agents/${agentId}/branches`)).body.branches.filter(
          (x: { status: string }) => x.status === 'merged',
        ),
      ).toHaveLength(3);
    });

    it('two merges of the same item at once: one lands, the other answers MERGE_CONFLICT', async () => {
      const { agentId } = await seededAgent();
      const a = await api.createBranch(agentId, 'a');
      const b = await api.createBranch(agentId, 'b');
      await api.setBehavior(agentId, a.branchId, 'from a');
      await api.setBehavior(agentId, b.branchId, 'from b');
      const results = await Promise.all([
        api.post(`/v1/agents/${agentId}/branches/${a.branchId}/merge`, {}),
        api.post(`/v1/agents/${agentId}/branches/${b.branchId}/merge`, {}),
      ]);
      const ok = results.filter((r) => r.status === 200);
      const conflicted = results.filter((r) => r.status !== 200);
      expect(ok).toHaveLength(1);
      expect(conflicted).toHaveLength(1);
      const envelope = expectEnvelope(conflicted[0], 400, 'MERGE_CONFLICT');
      expect(envelope.data.conflicts).toHaveLength(1);
      expect(envelope.data.conflicts[0]).toMatchObject({ path: ['behavior'], base: 'v1' });
      const winner = envelope.data.conflicts[0].ours;
      expect(['from a', 'from b']).toContain(winner);
      expect(await api.behavior(agentId, 'main')).toBe(winner);
      expect(ok[0].body.sequence).toBe('2');
      expect(await api.deployments(agentId, 'sandbox')).toHaveLength(2);
    });
  });
});

describe('Agents API: topic ids after merges (own app: a failure here may break the agents read model)', () => {
  let fx: AgentsFixture;
  let api: AgentsClient;
  beforeAll(async () => {
    fx = await startAgentsFixture();
    api = fx.api;
  });
  afterAll(async () => fx?.close());

  it('two branches renaming the same topic differently: main keeps unique topic ids, each editable by id, and the API keeps serving', async () => {
    const agent = await api.createAgent('Renames');
    await api.shipChange(agent.agentId, 'seed', (b) =>
      api.addTopic(agent.agentId, b, { name: 'hours', content: 'open 9-5' }),
    );
    const a = await api.createBranch(agent.agentId, 'a');
    const b = await api.createBranch(agent.agentId, 'b');
    const hoursOnA = (await api.topicByName(agent.agentId, a.branchId, 'hours'))!;
    const hoursOnB = (await api.topicByName(agent.agentId, b.branchId, 'hours'))!;
    await api.editTopic(agent.agentId, a.branchId, hoursOnA.id, { name: 'business hours' });
    await api.editTopic(agent.agentId, b.branchId, hoursOnB.id, { name: 'opening hours' });
    await api.merge(agent.agentId, a.branchId);

    const second = await api.post(`/v1/agents/${agent.agentId}/branches/${b.branchId}/merge`, {});
    // a conflict is an acceptable answer; a merge that lands must leave main consistent
    if (second.status !== 200) expectEnvelope(second, 400, 'MERGE_CONFLICT');

    const main = await api.topics(agent.agentId, 'main');
    expect(new Set(main.map((t) => t.id)).size).toBe(main.length);
    const after = await api.createBranch(agent.agentId, 'after');
    for (const t of await api.topics(agent.agentId, after.branchId)) {
      await api.editTopic(agent.agentId, after.branchId, t.id, { content: `${t.name} edited` });
    }
    expect((await api.topics(agent.agentId, after.branchId)).every((t) => t.content === `${t.name} edited`)).toBe(true);
    // the agents read model still serves other agents
    const other = await api.post(`/v1/accounts/${fx.account.accountId}/agents`, {
      name: 'Still alive',
      responseSettings: { greeting: 'Hi' },
    });
    expect(other.status).toBe(200);
  }, 120_000);
});
