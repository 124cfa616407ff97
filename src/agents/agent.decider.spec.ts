import { DomainError } from '../platform/errors/domain-error';
import { agentDecider, MAIN, type AgentCommand, type AgentState } from './agent.decider';
import type { AgentEvent, Environment, Topic } from './agent.events';
import type { Content } from './merge';

/*
 * Given events / when command / then events or error, for every rule of the Agents API
 * (interface.md "Agent", "Branch", "Agent environments and deployments", "Errors → Agents API";
 * contract §5).
 */

const NOW = '2030-01-01T00:00:00.000Z';
const AGENT = 'ag1';
const ACCOUNT = 'acc1';

type Cmd = AgentCommand extends infer C ? (C extends { now: string } ? Omit<C, 'now'> : never) : never;

const fold = (events: AgentEvent[], from: AgentState = agentDecider.initialState()) =>
  events.reduce(agentDecider.evolve, from);

/** Runs commands through decide + evolve (what a CommandHandler does), returning every event emitted. */
function history(...commands: Cmd[]): AgentEvent[] {
  let state = agentDecider.initialState();
  const all: AgentEvent[] = [];
  for (const command of commands) {
    const events = agentDecider.decide({ ...command, now: NOW } as AgentCommand, state);
    state = fold(events, state);
    all.push(...events);
  }
  return all;
}

function given(events: AgentEvent[]) {
  const state = fold(events);
  return {
    state,
    when(command: Cmd) {
      const run = () => agentDecider.decide({ ...command, now: NOW } as AgentCommand, state);
      return {
        run,
        then(): { events: AgentEvent[]; state: AgentState } {
          const events = run();
          return { events, state: fold(events, state) };
        },
        /** `code` only where the spec names it (MERGE_CONFLICT, DEPLOYMENT_NOT_FOUND). */
        thenError(status: number, code?: string): DomainError {
          let thrown: unknown;
          try {
            run();
          } catch (error) {
            thrown = error;
          }
          expect(thrown).toBeInstanceOf(DomainError);
          const error = thrown as DomainError;
          expect({ code: error.code, status: error.status }).toEqual({ code: code ?? error.code, status });
          return error;
        },
      };
    },
  };
}

const topic = (name: string, over: Partial<Topic> = {}): Topic => ({
  id: `t-${name}`,
  name,
  content: `${name} content`,
  exampleQueries: [`about ${name}`],
  actions: '',
  isActive: true,
  ...over,
});

// Commands
const create: Cmd = {
  type: 'CreateAgent',
  agentId: AGENT,
  accountId: ACCOUNT,
  name: 'Bot',
  greeting: 'Hi',
  languageCode: 'en-GB',
};
const branch = (branchId: string, branchName = branchId): Cmd => ({ type: 'CreateBranch', branchId, branchName });
const behavior = (branchId: string, text: string): Cmd => ({ type: 'EditBehavior', branchId, behavior: text });
const add = (branchId: string, t: Topic): Cmd => ({ type: 'AddTopic', branchId, topic: t });
const edit = (branchId: string, topicId: string, changes: Partial<Topic>): Cmd => ({
  type: 'EditTopic',
  branchId,
  topicId,
  changes,
});
const remove = (branchId: string, topicId: string): Cmd => ({ type: 'RemoveTopic', branchId, topicId });
const merge = (
  branchId: string,
  deploymentId = `dep-${branchId}`,
  resolutions: Array<{ path: string[]; strategy: 'ours' | 'theirs' | 'base'; value?: unknown }> = [],
): Cmd => ({
  type: 'MergeBranch',
  branchId,
  message: `merge ${branchId}`,
  resolutions,
  deploymentId,
  actor: 'key_1',
});
const promote = (deploymentId: string, target: Environment | null, newDeploymentId: string): Cmd => ({
  type: 'Promote',
  deploymentId,
  target,
  newDeploymentId,
  actor: 'key_1',
  message: '',
});
const rollback = (deploymentId: string): Cmd => ({ type: 'Rollback', deploymentId, message: 'back' });

/** Main (or any content) as plain data, to compare. */
const plain = (content: Content | undefined) =>
  content && {
    behavior: content.behavior,
    topics: [...content.topics.values()].map((t) => ({ ...t })).sort((a, b) => a.name.localeCompare(b.name)),
  };
const mainOf = (state: AgentState) => plain(state.snapshots.get(state.mainSequence));

/** An agent whose main holds behavior "v1" and topics hours + refunds (merged from branch `seed`, sequence 1; sandbox deployment dep-seed). */
const seeded = () => history(...seededCommands());

describe('agent decider', () => {
  describe('CreateAgent', () => {
    it('creates the agent with exactly one branch, main, at sequence 0 and an empty main', () => {
      const { events, state } = given([]).when(create).then();
      expect(events).toEqual([
        {
          type: 'AgentCreated',
          data: {
            agentId: AGENT,
            accountId: ACCOUNT,
            name: 'Bot',
            greeting: 'Hi',
            languageCode: 'en-GB',
            createdAt: NOW,
          },
        },
      ]);
      expect(state.exists).toBe(true);
      expect([...state.branchNames]).toEqual([MAIN]);
      expect(state.branches.size).toBe(0);
      expect(state.mainSequence).toBe(0);
      expect(mainOf(state)).toEqual({ behavior: '', topics: [] });
      expect(state.deployments.size).toBe(0);
    });

    it('refuses to create the same agent twice (409)', () => {
      given(history(create)).when(create).thenError(409);
    });

    it.each<[string, Cmd]>([
      ['CreateBranch', branch('b1')],
      ['EditBehavior', behavior('b1', 'x')],
      ['DeleteAgent', { type: 'DeleteAgent' }],
      ['Promote', promote('d1', null, 'd2')],
      ['Rollback', rollback('d1')],
    ])('answers 404 for %s on an agent that was never created', (_name, command) => {
      given([]).when(command).thenError(404);
    });
  });

  describe('DeleteAgent', () => {
    it('emits AgentDeleted', () => {
      const { events, state } = given(history(create)).when({ type: 'DeleteAgent' }).then();
      expect(events).toEqual([{ type: 'AgentDeleted', data: { agentId: AGENT, accountId: ACCOUNT, deletedAt: NOW } }]);
      expect(state.deleted).toBe(true);
    });

    it.each<[string, Cmd]>([
      ['DeleteAgent', { type: 'DeleteAgent' }],
      ['CreateBranch', branch('b2')],
      ['DeleteBranch', { type: 'DeleteBranch', branchId: 'b1' }],
      ['EditBehavior', behavior('b1', 'x')],
      ['AddTopic', add('b1', topic('z'))],
      ['EditTopic', edit('b1', 't-a', { content: 'x' })],
      ['RemoveTopic', remove('b1', 't-a')],
      ['MergeBranch', merge('b1', 'd9')],
      ['Promote', promote('dep-b1', 'pre-release', 'd9')],
      ['Rollback', rollback('dep-b1')],
    ])('afterwards %s answers 404', (_name, command) => {
      const events = history(create, branch('b1'), add('b1', topic('a')), merge('b1'), { type: 'DeleteAgent' });
      given(events).when(command).thenError(404);
    });
  });

  describe('CreateBranch', () => {
    it('cuts a new branch at main sequence 0 with main content', () => {
      const { events, state } = given(history(create)).when(branch('b1', 'feature/one')).then();
      expect(events).toEqual([
        {
          type: 'BranchCreated',
          data: { agentId: AGENT, branchId: 'b1', branchName: 'feature/one', baseSequence: 0, createdAt: NOW },
        },
      ]);
      const b = state.branches.get('b1')!;
      expect(b).toMatchObject({ id: 'b1', name: 'feature/one', baseSequence: 0, status: 'open' });
      expect(plain(b.content)).toEqual({ behavior: '', topics: [] });
    });

    it("cuts the branch at main's current sequence, holding main's content at that sequence", () => {
      const { events, state } = given(seeded()).when(branch('b2')).then();
      expect(events[0]).toMatchObject({ type: 'BranchCreated', data: { baseSequence: 1 } });
      expect(plain(state.branches.get('b2')!.content)).toEqual(mainOf(state));
      expect(mainOf(state)!.behavior).toBe('v1');
      expect(mainOf(state)!.topics.map((t) => t.name)).toEqual(['hours', 'refunds']);
    });

    it('refuses a duplicate branch name (409)', () => {
      given(history(create, branch('b1', 'feat')))
        .when(branch('b2', 'feat'))
        .thenError(409);
    });

    it('refuses the name main (409)', () => {
      given(history(create)).when(branch('b1', 'main')).thenError(409);
    });
  });

  describe('DeleteBranch', () => {
    it('emits BranchDeleted; the branch then answers 404 to reads and writes', () => {
      const { events, state } = given(history(create, branch('b1')))
        .when({ type: 'DeleteBranch', branchId: 'b1' })
        .then();
      expect(events).toEqual([{ type: 'BranchDeleted', data: { agentId: AGENT, branchId: 'b1', deletedAt: NOW } }]);
      const after = [...history(create, branch('b1')), ...events];
      given(after).when(behavior('b1', 'x')).thenError(404);
      given(after)
        .when(add('b1', topic('x')))
        .thenError(404);
      given(after).when(merge('b1')).thenError(404);
      given(after).when({ type: 'DeleteBranch', branchId: 'b1' }).thenError(404);
      expect(state.branches.get('b1')?.status ?? 'deleted').toBe('deleted');
    });

    it('answers 404 for an unknown branch and 422 for main', () => {
      given(history(create)).when({ type: 'DeleteBranch', branchId: 'nope' }).thenError(404);
      let thrown: unknown;
      try {
        given(history(create)).when({ type: 'DeleteBranch', branchId: MAIN }).run();
      } catch (e) {
        thrown = e;
      }
      expect(thrown).toBeInstanceOf(DomainError);
      expect((thrown as DomainError).status).toBe(422);
    });
  });

  describe('writes to main', () => {
    it.each<[string, Cmd]>([
      ['EditBehavior', behavior(MAIN, 'x')],
      ['AddTopic', add(MAIN, topic('x'))],
      ['EditTopic', edit(MAIN, 't-hours', { content: 'x' })],
      ['RemoveTopic', remove(MAIN, 't-hours')],
      ['MergeBranch', merge(MAIN)],
    ])('%s on main answers 422 saying main cannot be updated directly', (_name, command) => {
      const error = given(seeded()).when(command).thenError(422);
      expect(error.message).toMatch(/main cannot be updated directly/);
    });
  });

  describe('a merged branch is read-only', () => {
    it.each<[string, Cmd]>([
      ['EditBehavior', behavior('seed', 'x')],
      ['AddTopic', add('seed', topic('x'))],
      ['EditTopic', edit('seed', 't-hours', { content: 'x' })],
      ['RemoveTopic', remove('seed', 't-hours')],
      ['MergeBranch', merge('seed', 'dep-again')],
    ])('%s on a merged branch answers 409', (_name, command) => {
      given(seeded()).when(command).thenError(409);
    });
  });

  describe('behavior', () => {
    it('EditBehavior records the new behavior on the branch only', () => {
      const { events, state } = given(history(create, branch('b1')))
        .when(behavior('b1', 'Be brief.'))
        .then();
      expect(events).toEqual([
        { type: 'BehaviorEdited', data: { agentId: AGENT, branchId: 'b1', behavior: 'Be brief.', editedAt: NOW } },
      ]);
      expect(state.branches.get('b1')!.content.behavior).toBe('Be brief.');
      expect(mainOf(state)!.behavior).toBe('');
    });

    it('answers 404 for an unknown branch', () => {
      given(history(create)).when(behavior('nope', 'x')).thenError(404);
    });
  });

  describe('topics', () => {
    it('AddTopic adds the topic to the branch, not to main', () => {
      const t = topic('hours');
      const { events, state } = given(history(create, branch('b1')))
        .when(add('b1', t))
        .then();
      expect(events).toEqual([
        { type: 'TopicAdded', data: { agentId: AGENT, branchId: 'b1', topic: t, addedAt: NOW } },
      ]);
      expect(state.branches.get('b1')!.content.topics.get('hours')).toEqual(t);
      expect(mainOf(state)!.topics).toEqual([]);
    });

    it('AddTopic with a name already on the branch answers 409', () => {
      given(history(create, branch('b1'), add('b1', topic('hours'))))
        .when(add('b1', topic('hours', { id: 't-other', content: 'different' })))
        .thenError(409);
    });

    it('AddTopic with a name main already has (inherited by the branch) answers 409', () => {
      given(history(...seededCommands(), branch('b2')))
        .when(add('b2', topic('hours', { id: 't-new' })))
        .thenError(409);
    });

    it('EditTopic changes only the given fields and keeps the id', () => {
      const { events, state } = given(history(create, branch('b1'), add('b1', topic('hours'))))
        .when(edit('b1', 't-hours', { content: 'Open 9-5', isActive: false }))
        .then();
      const expected = { ...topic('hours'), content: 'Open 9-5', isActive: false };
      expect(events).toEqual([
        { type: 'TopicEdited', data: { agentId: AGENT, branchId: 'b1', topic: expected, editedAt: NOW } },
      ]);
      expect(state.branches.get('b1')!.content.topics.get('hours')).toEqual(expected);
    });

    it('EditTopic can rename, and refuses a rename onto an existing name (409)', () => {
      const base = history(create, branch('b1'), add('b1', topic('hours')), add('b1', topic('refunds')));
      const { state } = given(base)
        .when(edit('b1', 't-hours', { name: 'opening hours' }))
        .then();
      expect([...state.branches.get('b1')!.content.topics.keys()].sort()).toEqual(['opening hours', 'refunds']);
      given(base)
        .when(edit('b1', 't-hours', { name: 'refunds' }))
        .thenError(409);
    });

    it('EditTopic and RemoveTopic of an unknown topic answer 404', () => {
      const base = history(create, branch('b1'), add('b1', topic('hours')));
      given(base)
        .when(edit('b1', 't-nope', { content: 'x' }))
        .thenError(404);
      given(base).when(remove('b1', 't-nope')).thenError(404);
    });

    it('RemoveTopic removes it; afterwards it is unknown (404) and its name is free again', () => {
      const base = history(create, branch('b1'), add('b1', topic('hours')));
      const { events, state } = given(base).when(remove('b1', 't-hours')).then();
      expect(events).toEqual([
        {
          type: 'TopicRemoved',
          data: { agentId: AGENT, branchId: 'b1', topicId: 't-hours', name: 'hours', removedAt: NOW },
        },
      ]);
      expect(state.branches.get('b1')!.content.topics.size).toBe(0);
      const after = [...base, ...events];
      given(after)
        .when(edit('b1', 't-hours', { content: 'x' }))
        .thenError(404);
      given(after).when(remove('b1', 't-hours')).thenError(404);
      expect(
        given(after)
          .when(add('b1', topic('hours', { id: 't-hours-2' })))
          .then().events[0].type,
      ).toBe('TopicAdded');
    });

    it('topics inherited from main are editable on the branch by their id', () => {
      const events = history(...seededCommands(), branch('b2'));
      const { state } = given(events)
        .when(edit('b2', 't-hours', { content: 'changed' }))
        .then();
      expect(state.branches.get('b2')!.content.topics.get('hours')!.content).toBe('changed');
      expect(mainOf(state)!.topics.find((t) => t.name === 'hours')!.content).toBe('hours content');
    });

    it.each(['name', 'content', 'actions', 'isActive', 'exampleQueries'])(
      'EditTopic with %s null is a VALIDATION_ERROR, never recorded',
      (field) => {
        const error = given(history(create, branch('b1'), add('b1', topic('hours'))))
          .when(edit('b1', 't-hours', { [field]: null } as Partial<Topic>))
          .thenError(400, 'VALIDATION_ERROR');
        expect(error.fieldErrors).toEqual([{ field, message: `${field} must not be null` }]);
      },
    );

    it('AddTopic refuses null and wrong types in the topic', () => {
      const start = history(create, branch('b1'));
      given(start)
        .when(add('b1', topic('hours', { actions: null as unknown as string })))
        .thenError(400, 'VALIDATION_ERROR');
      given(start)
        .when(add('b1', topic('hours', { isActive: 'yes' as unknown as boolean })))
        .thenError(400, 'VALIDATION_ERROR');
      given(start)
        .when(add('b1', topic('hours', { exampleQueries: [1] as unknown as string[] })))
        .thenError(400, 'VALIDATION_ERROR');
    });
  });

  describe('MergeBranch, clean', () => {
    it('emits BranchMerged and DeploymentCreated(sandbox) in one decision, at sequence + 1', () => {
      const before = history(create, branch('b1'), behavior('b1', 'Be kind.'), add('b1', topic('hours')));
      const { events, state } = given(before).when(merge('b1', 'dep-1')).then();
      expect(events.map((e) => e.type)).toEqual(['BranchMerged', 'DeploymentCreated']);
      expect(events[0]).toMatchObject({
        type: 'BranchMerged',
        data: { agentId: AGENT, branchId: 'b1', sequence: 1, message: 'merge b1', mergedAt: NOW },
      });
      expect(events[1]).toEqual({
        type: 'DeploymentCreated',
        data: {
          agentId: AGENT,
          accountId: ACCOUNT,
          deployment: expect.objectContaining({
            deploymentId: 'dep-1',
            environment: 'sandbox',
            version: 1,
            createdBy: 'key_1',
            createdAt: NOW,
            message: 'merge b1',
          }),
        },
      });
      expect(state.mainSequence).toBe(1);
      expect(mainOf(state)).toEqual({ behavior: 'Be kind.', topics: [topic('hours')] });
      expect(state.active.sandbox).toBe('dep-1');
      expect(state.branches.get('b1')!.status).toBe('merged');
    });

    it('the next merge is sequence + 1 again, with a new sandbox deployment at that version', () => {
      const { events, state } = given(history(...seededCommands(), branch('b2'), behavior('b2', 'v2')))
        .when(merge('b2', 'dep-2'))
        .then();
      expect(events[0]).toMatchObject({ data: { sequence: 2 } });
      expect(events[1]).toMatchObject({
        data: { deployment: { deploymentId: 'dep-2', environment: 'sandbox', version: 2 } },
      });
      expect(state.mainSequence).toBe(2);
      expect(state.active.sandbox).toBe('dep-2');
      expect(state.deployments.get('dep-2')!.artifactVersion).toBeGreaterThan(
        state.deployments.get('dep-seed')!.artifactVersion,
      );
    });

    it('takes changes made only on main and only on the branch (different items) together', () => {
      // b1 and b2 both cut at sequence 1; b1 changes hours (merged first), b2 changes refunds, behavior, adds topics
      const events = history(
        ...seededCommands(),
        branch('b1'),
        branch('b2'),
        edit('b1', 't-hours', { content: 'from b1' }),
        merge('b1'),
        edit('b2', 't-refunds', { content: 'from b2' }),
        behavior('b2', 'v2'),
        add('b2', topic('new')),
        add('b2', topic('extra')),
      );
      const { events: out, state } = given(events).when(merge('b2')).then();
      expect(out[0]).toMatchObject({ data: { sequence: 3 } });
      const main = mainOf(state)!;
      expect(main.behavior).toBe('v2');
      expect(main.topics.find((t) => t.name === 'hours')!.content).toBe('from b1');
      expect(main.topics.find((t) => t.name === 'refunds')!.content).toBe('from b2');
      expect(main.topics.map((t) => t.name).sort()).toEqual(['extra', 'hours', 'new', 'refunds']);
    });

    it('a topic renamed on the branch arrives on main under its new name only', () => {
      const events = history(...seededCommands(), branch('b1'), edit('b1', 't-hours', { name: 'opening hours' }));
      const { state } = given(events).when(merge('b1')).then();
      expect(mainOf(state)!.topics.map((t) => t.name)).toEqual(['opening hours', 'refunds']);
    });

    describe('topic ids stay unique on main (PATCH/DELETE address topics by id)', () => {
      const expectUniqueIds = (state: AgentState, names: string[]) => {
        const main = mainOf(state)!;
        expect(main.topics.map((t) => t.name)).toEqual(names);
        const ids = main.topics.map((t) => t.id);
        expect(new Set(ids).size).toBe(ids.length);
        // and a branch cut now can address each of them by its id
        const next = fold(agentDecider.decide({ ...branch('after'), now: NOW } as AgentCommand, state), state);
        expect([...next.branches.get('after')!.topicNames.values()].sort()).toEqual(names);
      };

      it('a branch renames a topic and adds a new topic under the old name', () => {
        const events = history(
          ...seededCommands(),
          branch('b1'),
          edit('b1', 't-hours', { name: 'opening hours' }),
          add('b1', topic('hours', { id: 't-hours-new', content: 'new hours' })),
        );
        const { state } = given(events).when(merge('b1')).then();
        expectUniqueIds(state, ['hours', 'opening hours', 'refunds']);
      });

      it('two branches rename the same topic differently, merged one after the other', () => {
        const events = history(
          ...seededCommands(),
          branch('a'),
          branch('b'),
          edit('a', 't-hours', { name: 'business hours' }),
          merge('a'),
          edit('b', 't-hours', { name: 'opening hours' }),
        );
        let state: AgentState;
        try {
          state = given(events).when(merge('b')).then().state;
        } catch (error) {
          // reporting this as a conflict is acceptable too; a merge that lands must keep ids unique
          expect(error).toBeInstanceOf(DomainError);
          expect((error as DomainError).code).toBe('MERGE_CONFLICT');
          return;
        }
        const names = mainOf(state)!.topics.map((t) => t.name);
        expectUniqueIds(state, names);
      });

      it('a rename on the branch whose old name conflicts, settled with ours', () => {
        const events = history(
          ...seededCommands(),
          branch('m'),
          branch('b'),
          edit('m', 't-hours', { content: 'main hours' }),
          merge('m'),
          edit('b', 't-hours', { name: 'opening hours' }),
        );
        const { state } = given(events)
          .when(merge('b', 'dep-b', [{ path: ['topics', 'hours'], strategy: 'ours' }]))
          .then();
        expectUniqueIds(state, ['hours', 'opening hours', 'refunds']);
      });
    });

    it('a topic removed on the branch (untouched on main) is removed from main', () => {
      const events = history(...seededCommands(), branch('b1'), remove('b1', 't-hours'));
      const { state } = given(events).when(merge('b1')).then();
      expect(mainOf(state)!.topics.map((t) => t.name)).toEqual(['refunds']);
    });
  });

  describe('MergeBranch, conflicts', () => {
    /** main moved on through branch m, the branch under test is b (both cut at sequence 1). */
    const diverged = (onMain: Cmd[], onBranch: Cmd[]) =>
      history(...seededCommands(), branch('m'), branch('b'), ...onMain, merge('m'), ...onBranch);

    const conflictsOf = (events: AgentEvent[], resolutions: Parameters<typeof merge>[2] = []) => {
      const error = given(events)
        .when(merge('b', 'dep-b', resolutions))
        .thenError(400, 'MERGE_CONFLICT');
      const data = error.data as {
        conflicts: Array<{ path: string[]; ours: unknown; theirs: unknown; base: unknown }>;
      };
      expect(Array.isArray(data.conflicts)).toBe(true);
      for (const c of data.conflicts) expect(Object.keys(c).sort()).toEqual(['base', 'ours', 'path', 'theirs']);
      return data.conflicts;
    };

    it('behavior changed differently on both sides', () => {
      const conflicts = conflictsOf(diverged([behavior('m', 'main says')], [behavior('b', 'branch says')]));
      expect(conflicts).toEqual([{ path: ['behavior'], ours: 'main says', theirs: 'branch says', base: 'v1' }]);
    });

    it('the same topic changed differently on both sides', () => {
      const conflicts = conflictsOf(
        diverged(
          [edit('m', 't-hours', { content: 'main hours' })],
          [edit('b', 't-hours', { content: 'branch hours' })],
        ),
      );
      expect(conflicts).toHaveLength(1);
      expect(conflicts[0].path).toEqual(['topics', 'hours']);
      expect(conflicts[0].ours).toMatchObject({ name: 'hours', content: 'main hours' });
      expect(conflicts[0].theirs).toMatchObject({ name: 'hours', content: 'branch hours' });
      expect(conflicts[0].base).toMatchObject({ name: 'hours', content: 'hours content' });
    });

    it('a topic deleted on main and edited on the branch', () => {
      const conflicts = conflictsOf(
        diverged([remove('m', 't-hours')], [edit('b', 't-hours', { content: 'branch hours' })]),
      );
      expect(conflicts).toHaveLength(1);
      expect(conflicts[0].path).toEqual(['topics', 'hours']);
      expect(conflicts[0].ours ?? null).toBeNull();
      expect(conflicts[0].theirs).toMatchObject({ content: 'branch hours' });
      expect(conflicts[0].base).toMatchObject({ content: 'hours content' });
    });

    it('a topic edited on main and deleted on the branch', () => {
      const conflicts = conflictsOf(
        diverged([edit('m', 't-hours', { content: 'main hours' })], [remove('b', 't-hours')]),
      );
      expect(conflicts).toHaveLength(1);
      expect(conflicts[0].path).toEqual(['topics', 'hours']);
      expect(conflicts[0].ours).toMatchObject({ content: 'main hours' });
      expect(conflicts[0].theirs ?? null).toBeNull();
      expect(conflicts[0].base).toMatchObject({ content: 'hours content' });
    });

    it('a topic added with the same name on both sides with different content', () => {
      const conflicts = conflictsOf(
        diverged(
          [add('m', topic('parking', { id: 't-pm', content: 'main parking' }))],
          [add('b', topic('parking', { id: 't-pb', content: 'branch parking' }))],
        ),
      );
      expect(conflicts).toHaveLength(1);
      expect(conflicts[0].path).toEqual(['topics', 'parking']);
      expect(conflicts[0].ours).toMatchObject({ content: 'main parking' });
      expect(conflicts[0].theirs).toMatchObject({ content: 'branch parking' });
      expect(conflicts[0].base ?? null).toBeNull();
    });

    it('lists every conflict at once and emits nothing', () => {
      const events = diverged(
        [behavior('m', 'main says'), edit('m', 't-hours', { content: 'main hours' })],
        [behavior('b', 'branch says'), edit('b', 't-hours', { content: 'branch hours' }), add('b', topic('fine'))],
      );
      const conflicts = conflictsOf(events);
      expect(conflicts.map((c) => c.path)).toEqual(expect.arrayContaining([['behavior'], ['topics', 'hours']]));
      expect(conflicts).toHaveLength(2);
      // nothing changed: the branch is still open and mergeable once resolved
      const state = fold(events);
      expect(state.branches.get('b')!.status).toBe('open');
      expect(state.mainSequence).toBe(2);
    });

    describe('identical changes on both sides are not conflicts', () => {
      it.each<[string, Cmd[], Cmd[]]>([
        ['same behavior', [behavior('m', 'same')], [behavior('b', 'same')]],
        ['same topic edit', [edit('m', 't-hours', { content: 'same' })], [edit('b', 't-hours', { content: 'same' })]],
        ['same topic deleted', [remove('m', 't-hours')], [remove('b', 't-hours')]],
        [
          'same topic added',
          [add('m', topic('parking', { id: 't-pm' }))],
          [add('b', topic('parking', { id: 't-pb' }))],
        ],
      ])('%s', (_name, onMain, onBranch) => {
        const events = diverged(onMain, onBranch);
        const before = mainOf(fold(events));
        const { events: out, state } = given(events).when(merge('b')).then();
        expect(out.map((e) => e.type)).toEqual(['BranchMerged', 'DeploymentCreated']);
        expect(state.mainSequence).toBe(3);
        expect(mainOf(state)).toEqual(before);
      });
    });

    describe('conflictResolutions settle them', () => {
      const behaviorConflict = () => diverged([behavior('m', 'main says')], [behavior('b', 'branch says')]);
      const topicConflict = () =>
        diverged(
          [edit('m', 't-hours', { content: 'main hours' })],
          [edit('b', 't-hours', { content: 'branch hours' })],
        );
      const resolve = (events: AgentEvent[], resolutions: Parameters<typeof merge>[2]) => {
        const { events: out, state } = given(events)
          .when(merge('b', 'dep-b', resolutions))
          .then();
        expect(out.map((e) => e.type)).toEqual(['BranchMerged', 'DeploymentCreated']);
        return mainOf(state)!;
      };

      it.each([
        ['ours', 'main says'],
        ['theirs', 'branch says'],
        ['base', 'v1'],
      ] as const)('behavior with strategy %s', (strategy, expected) => {
        expect(resolve(behaviorConflict(), [{ path: ['behavior'], strategy }]).behavior).toBe(expected);
      });

      it('behavior with an explicit value', () => {
        expect(
          resolve(behaviorConflict(), [{ path: ['behavior'], strategy: 'theirs', value: 'hand merged' }]).behavior,
        ).toBe('hand merged');
      });

      it.each([
        ['ours', 'main hours'],
        ['theirs', 'branch hours'],
        ['base', 'hours content'],
      ] as const)('a topic with strategy %s', (strategy, expected) => {
        const main = resolve(topicConflict(), [{ path: ['topics', 'hours'], strategy }]);
        expect(main.topics.find((t) => t.name === 'hours')!.content).toBe(expected);
      });

      it('a topic with an explicit value', () => {
        const main = resolve(topicConflict(), [
          {
            path: ['topics', 'hours'],
            strategy: 'theirs',
            value: {
              name: 'hours',
              content: 'hand merged',
              exampleQueries: { queries: ['when open'] },
              actions: '',
              isActive: true,
            },
          },
        ]);
        expect(main.topics.find((t) => t.name === 'hours')).toMatchObject({
          name: 'hours',
          content: 'hand merged',
          exampleQueries: ['when open'],
        });
      });

      it('a deleted-vs-edited topic with theirs keeps the edit; with ours keeps the deletion', () => {
        const events = diverged([remove('m', 't-hours')], [edit('b', 't-hours', { content: 'branch hours' })]);
        expect(
          resolve(events, [{ path: ['topics', 'hours'], strategy: 'theirs' }]).topics.find((t) => t.name === 'hours')!
            .content,
        ).toBe('branch hours');
        expect(
          resolve(events, [{ path: ['topics', 'hours'], strategy: 'ours' }]).topics.find((t) => t.name === 'hours'),
        ).toBeUndefined();
      });

      it('settling only some conflicts still answers MERGE_CONFLICT with the rest', () => {
        const events = diverged(
          [behavior('m', 'main says'), edit('m', 't-hours', { content: 'main hours' })],
          [behavior('b', 'branch says'), edit('b', 't-hours', { content: 'branch hours' })],
        );
        const conflicts = conflictsOf(events, [{ path: ['behavior'], strategy: 'theirs' }]);
        expect(conflicts.map((c) => c.path)).toEqual([['topics', 'hours']]);
      });

      it('the non-conflicting changes of the branch are applied along with the resolutions', () => {
        const events = diverged(
          [behavior('m', 'main says')],
          [behavior('b', 'branch says'), add('b', topic('parking'))],
        );
        const main = resolve(events, [{ path: ['behavior'], strategy: 'ours' }]);
        expect(main.behavior).toBe('main says');
        expect(main.topics.map((t) => t.name).sort()).toEqual(['hours', 'parking', 'refunds']);
      });
    });

    describe('two branches merged one after the other', () => {
      it('the second sees the first: conflicting edits conflict with the first merge as ours', () => {
        const events = history(
          ...seededCommands(),
          branch('a'),
          branch('b'),
          behavior('a', 'from a'),
          behavior('b', 'from b'),
          merge('a'),
        );
        const conflicts = conflictsOf(events);
        expect(conflicts).toEqual([{ path: ['behavior'], ours: 'from a', theirs: 'from b', base: 'v1' }]);
      });

      it('the second sees the first: disjoint edits merge cleanly and main keeps both', () => {
        const events = history(
          ...seededCommands(),
          branch('a'),
          branch('b'),
          behavior('a', 'from a'),
          add('b', topic('parking')),
          edit('b', 't-refunds', { content: 'from b' }),
          merge('a'),
        );
        const { events: out, state } = given(events).when(merge('b')).then();
        expect(out[0]).toMatchObject({ data: { sequence: 3 } });
        const main = mainOf(state)!;
        expect(main.behavior).toBe('from a');
        expect(main.topics.map((t) => t.name).sort()).toEqual(['hours', 'parking', 'refunds']);
        expect(main.topics.find((t) => t.name === 'refunds')!.content).toBe('from b');
        // the branch b did not carry a's behavior, yet main keeps it: b's untouched behavior is not a change
        expect(state.active.sandbox).toBe('dep-b');
      });
    });
  });

  describe('Promote', () => {
    const base = () => history(...seededCommands()); // sandbox deployment dep-seed, version 1

    it('target omitted: sandbox → pre-release → live, a new deployment each time, same version', () => {
      const step1 = given(base())
        .when(promote('dep-seed', null, 'pre-1'))
        .then();
      expect(step1.events).toEqual([
        {
          type: 'DeploymentCreated',
          data: {
            agentId: AGENT,
            accountId: ACCOUNT,
            deployment: expect.objectContaining({
              deploymentId: 'pre-1',
              environment: 'pre-release',
              version: 1,
              createdBy: 'key_1',
            }),
          },
        },
      ]);
      expect(step1.state.active).toMatchObject({ sandbox: 'dep-seed', 'pre-release': 'pre-1' });
      const step2 = given([...base(), ...step1.events])
        .when(promote('pre-1', null, 'live-1'))
        .then();
      expect(step2.events[0]).toMatchObject({
        data: { deployment: { deploymentId: 'live-1', environment: 'live', version: 1 } },
      });
      expect(step2.state.active).toEqual({ sandbox: 'dep-seed', 'pre-release': 'pre-1', live: 'live-1' });
      const artifacts = ['dep-seed', 'pre-1', 'live-1'].map((id) => step2.state.deployments.get(id)!.artifactVersion);
      expect(new Set(artifacts).size).toBe(3);
    });

    it('explicit targets: sandbox → pre-release, pre-release → live', () => {
      const s1 = given(base())
        .when(promote('dep-seed', 'pre-release', 'pre-1'))
        .then();
      expect(s1.state.deployments.get('pre-1')).toMatchObject({ environment: 'pre-release', version: 1 });
      const s2 = given([...base(), ...s1.events])
        .when(promote('pre-1', 'live', 'live-1'))
        .then();
      expect(s2.state.deployments.get('live-1')).toMatchObject({ environment: 'live', version: 1 });
    });

    it('sandbox → live directly is allowed', () => {
      const { state } = given(base())
        .when(promote('dep-seed', 'live', 'live-1'))
        .then();
      expect(state.deployments.get('live-1')).toMatchObject({ environment: 'live', version: 1 });
      expect(state.active.live).toBe('live-1');
      expect(state.active['pre-release']).toBeUndefined();
    });

    it.each<[string, Environment | null, Environment]>([
      ['sandbox → sandbox', 'sandbox', 'sandbox'],
      ['pre-release → pre-release', 'pre-release', 'pre-release'],
      ['pre-release → sandbox', 'sandbox', 'pre-release'],
      ['live → live', 'live', 'live'],
      ['live → pre-release', 'pre-release', 'live'],
      ['live → sandbox', 'sandbox', 'live'],
      ['live, target omitted (no next stage)', null, 'live'],
    ])('%s answers 422', (_name, target, sourceEnv) => {
      const events = [...base()];
      const chain: Record<Environment, string> = { sandbox: 'dep-seed', 'pre-release': 'pre-1', live: 'live-1' };
      if (sourceEnv !== 'sandbox')
        events.push(
          ...given(events)
            .when(promote('dep-seed', 'pre-release', 'pre-1'))
            .run(),
        );
      if (sourceEnv === 'live')
        events.push(
          ...given(events)
            .when(promote('pre-1', 'live', 'live-1'))
            .run(),
        );
      given(events)
        .when(promote(chain[sourceEnv], target, 'new'))
        .thenError(422);
    });

    it('an unknown deployment answers 404 DEPLOYMENT_NOT_FOUND', () => {
      given(base())
        .when(promote('nope', null, 'new'))
        .thenError(404, 'DEPLOYMENT_NOT_FOUND');
    });

    it('the version stays the same across promotions even after main moved on', () => {
      const events = history(...seededCommands(), branch('b2'), behavior('b2', 'v2'), merge('b2', 'dep-2'));
      const { state } = given(events)
        .when(promote('dep-seed', 'live', 'live-old'))
        .then();
      expect(state.deployments.get('live-old')!.version).toBe(1);
      expect(state.deployments.get('dep-2')!.version).toBe(2);
    });
  });

  describe('Rollback', () => {
    /** two merges: sandbox deployments dep-seed (v1) and dep-2 (v2), dep-2 active. */
    const twoMerges = () => history(...seededCommands(), branch('b2'), behavior('b2', 'v2'), merge('b2', 'dep-2'));

    it('makes an earlier deployment of the environment active again', () => {
      const { events, state } = given(twoMerges()).when(rollback('dep-seed')).then();
      expect(events).toEqual([
        {
          type: 'DeploymentActivated',
          data: {
            agentId: AGENT,
            accountId: ACCOUNT,
            deploymentId: 'dep-seed',
            environment: 'sandbox',
            message: 'back',
            activatedAt: NOW,
          },
        },
      ]);
      expect(state.active.sandbox).toBe('dep-seed');
      // nothing else moved: main is still at sequence 2
      expect(state.mainSequence).toBe(2);
    });

    it('rolls back live independently of sandbox', () => {
      const events = history(
        ...seededCommands(),
        branch('b2'),
        behavior('b2', 'v2'),
        merge('b2', 'dep-2'),
        promote('dep-seed', 'live', 'live-1'),
        promote('dep-2', 'live', 'live-2'),
      );
      const { state } = given(events).when(rollback('live-1')).then();
      expect(state.active).toEqual({ sandbox: 'dep-2', live: 'live-1' });
    });

    it('answers 409 for the deployment already active (before and after a rollback)', () => {
      given(twoMerges()).when(rollback('dep-2')).thenError(409);
      const after = [...twoMerges(), ...given(twoMerges()).when(rollback('dep-seed')).run()];
      given(after).when(rollback('dep-seed')).thenError(409);
    });

    it('answers 404 DEPLOYMENT_NOT_FOUND for an unknown deployment', () => {
      given(twoMerges()).when(rollback('nope')).thenError(404, 'DEPLOYMENT_NOT_FOUND');
    });
  });

  describe('deployment content is immutable', () => {
    it("a deployment's content (main at its version) never changes after later merges", () => {
      const first = fold(seeded());
      const deployment = first.deployments.get('dep-seed')!;
      const served = JSON.parse(JSON.stringify(plain(first.snapshots.get(deployment.version))));
      expect(served).toEqual({ behavior: 'v1', topics: [topic('hours'), topic('refunds')] });

      const later = fold(
        history(
          ...seededCommands(),
          branch('b2'),
          behavior('b2', 'v2'),
          edit('b2', 't-hours', { content: 'changed', name: 'hours' }),
          remove('b2', 't-refunds'),
          add('b2', topic('parking')),
          merge('b2', 'dep-2'),
          branch('b3'),
          edit('b3', 't-hours', { content: 'changed again' }),
          merge('b3', 'dep-3'),
        ),
      );
      expect(later.mainSequence).toBe(3);
      expect(later.deployments.get('dep-seed')).toEqual(deployment);
      expect(plain(later.snapshots.get(later.deployments.get('dep-seed')!.version))).toEqual(served);
      expect(plain(later.snapshots.get(2))).toEqual({
        behavior: 'v2',
        topics: [{ ...topic('hours'), content: 'changed' }, topic('parking')],
      });
      expect(plain(later.snapshots.get(3))!.topics.find((t) => t.name === 'hours')!.content).toBe('changed again');
    });

    it('a promoted deployment serves the same content as its source, whatever main holds now', () => {
      const events = history(
        ...seededCommands(),
        branch('b2'),
        behavior('b2', 'v2'),
        merge('b2', 'dep-2'),
        promote('dep-seed', 'live', 'live-1'),
      );
      const state = fold(events);
      const live = state.deployments.get('live-1')!;
      expect(live.version).toBe(1);
      expect(plain(state.snapshots.get(live.version))!.behavior).toBe('v1');
      expect(mainOf(state)!.behavior).toBe('v2');
    });
  });
});

function seededCommands(): Cmd[] {
  // hoisted: used by `seeded` above
  return [
    create,
    branch('seed'),
    behavior('seed', 'v1'),
    add('seed', topic('hours')),
    add('seed', topic('refunds')),
    merge('seed'),
  ];
}
