import { DomainError } from '../platform/errors/domain-error';
import { agentDecider, type AgentCommand, type AgentState } from './agent.decider';
import type { AgentEvent } from './agent.events';
import type { Tool } from './agent-tools.events';

/* Given events / when command / then events, for agent tools on branches (contract §20). */

const NOW = '2030-01-01T00:00:00.000Z';
const SECRET = { sealedSecret: 'v1.sealed', secretLast4: 'abcd' };

type Cmd = AgentCommand extends infer C ? (C extends { now: string } ? Omit<C, 'now'> : never) : never;

function run(commands: Cmd[], from: AgentState = agentDecider.initialState()) {
  let state = from;
  const events: AgentEvent[] = [];
  for (const command of commands) {
    const emitted = agentDecider.decide({ ...command, now: NOW } as AgentCommand, state);
    state = emitted.reduce(agentDecider.evolve, state);
    events.push(...emitted);
  }
  return { state, events };
}

function refusal(commands: Cmd[], from: AgentState): DomainError {
  try {
    run(commands, from);
  } catch (error) {
    return error as DomainError;
  }
  throw new Error('the command was not refused');
}

const tool = (id: string, name: string, url = 'https://tools.example.com/lookup'): Tool => ({
  id,
  name,
  description: 'looks an order up',
  url,
  method: 'POST',
  parameters: { type: 'object', properties: { order: { type: 'string' } } },
  headers: { sealed: 'v1.x', digest: 'd1' },
  timeoutMs: 3000,
});

const created = () =>
  run([
    { type: 'CreateAgent', agentId: 'ag1', accountId: 'acc1', name: 'A', greeting: 'hi', languageCode: 'en-GB' },
    { type: 'CreateBranch', branchId: 'b1', branchName: 'one' },
  ]).state;

describe('agent tools decider', () => {
  it('the first tool issues the agent’s tool secret in the same append; later ones do not', () => {
    const first = run([{ type: 'AddTool', branchId: 'b1', tool: tool('t1', 'lookup'), secret: SECRET }], created());
    expect(first.events.map((e) => e.type)).toEqual(['ToolAdded', 'ToolSecretIssued']);
    const second = run([{ type: 'AddTool', branchId: 'b1', tool: tool('t2', 'other'), secret: SECRET }], first.state);
    expect(second.events.map((e) => e.type)).toEqual(['ToolAdded']);
  });

  it('names are unique per branch; main is read-only; an unknown id is 404', () => {
    const { state } = run([{ type: 'AddTool', branchId: 'b1', tool: tool('t1', 'lookup'), secret: SECRET }], created());
    expect(
      refusal([{ type: 'AddTool', branchId: 'b1', tool: tool('t2', 'lookup'), secret: SECRET }], state),
    ).toMatchObject({ code: 'TOOL_EXISTS', status: 409 });
    expect(
      refusal([{ type: 'AddTool', branchId: 'main', tool: tool('t2', 'x'), secret: SECRET }], state),
    ).toMatchObject({
      status: 422,
    });
    expect(refusal([{ type: 'EditTool', branchId: 'b1', toolId: 'nope', changes: {} }], state)).toMatchObject({
      code: 'TOOL_NOT_FOUND',
      status: 404,
    });
  });

  it('edits, renames and removes by id', () => {
    const { state, events } = run(
      [
        { type: 'AddTool', branchId: 'b1', tool: tool('t1', 'lookup'), secret: SECRET },
        { type: 'EditTool', branchId: 'b1', toolId: 't1', changes: { name: 'find', timeoutMs: 800 } },
      ],
      created(),
    );
    expect(events[2]).toMatchObject({ type: 'ToolEdited', data: { tool: { id: 't1', name: 'find', timeoutMs: 800 } } });
    const branch = state.branches.get('b1')!;
    expect([...branch.content.tools!.keys()]).toEqual(['find']);
    const removed = run([{ type: 'RemoveTool', branchId: 'b1', toolId: 't1' }], state);
    expect(removed.events).toEqual([
      { type: 'ToolRemoved', data: { agentId: 'ag1', branchId: 'b1', toolId: 't1', name: 'find', removedAt: NOW } },
    ]);
    expect(removed.state.branches.get('b1')!.content.tools!.size).toBe(0);
  });

  it('a merge carries tools to main; a branch cut later starts with them', () => {
    const { state, events } = run(
      [
        { type: 'AddTool', branchId: 'b1', tool: tool('t1', 'lookup'), secret: SECRET },
        { type: 'MergeBranch', branchId: 'b1', message: 'm', resolutions: [], deploymentId: 'd1', actor: 'k' },
        { type: 'CreateBranch', branchId: 'b2', branchName: 'two' },
      ],
      created(),
    );
    const merged = events.find((e) => e.type === 'BranchMerged')!;
    expect(merged.type === 'BranchMerged' && merged.data.changes.tools).toEqual({
      upserted: [tool('t1', 'lookup')],
      removed: [],
    });
    expect([...state.branches.get('b2')!.content.tools!.keys()]).toEqual(['lookup']);
    expect(state.snapshots.get(1)!.tools!.get('lookup')!.id).toBe('t1');
  });

  it('both sides changing one tool differently conflicts (ours/theirs/base), and a resolution settles it', () => {
    const { state } = run(
      [
        { type: 'AddTool', branchId: 'b1', tool: tool('t1', 'lookup'), secret: SECRET },
        { type: 'MergeBranch', branchId: 'b1', message: '', resolutions: [], deploymentId: 'd1', actor: 'k' },
        { type: 'CreateBranch', branchId: 'b2', branchName: 'two' },
        { type: 'CreateBranch', branchId: 'b3', branchName: 'three' },
        { type: 'EditTool', branchId: 'b2', toolId: 't1', changes: { url: 'https://a.example.com/x' } },
        { type: 'EditTool', branchId: 'b3', toolId: 't1', changes: { url: 'https://b.example.com/x' } },
        { type: 'MergeBranch', branchId: 'b2', message: '', resolutions: [], deploymentId: 'd2', actor: 'k' },
      ],
      created(),
    );
    const error = refusal(
      [{ type: 'MergeBranch', branchId: 'b3', message: '', resolutions: [], deploymentId: 'd3', actor: 'k' }],
      state,
    );
    expect(error.code).toBe('MERGE_CONFLICT');
    const conflicts = (error.data as { conflicts: Array<Record<string, unknown>> }).conflicts;
    expect(conflicts).toEqual([
      {
        path: ['tools', 'lookup'],
        ours: expect.objectContaining({ url: 'https://a.example.com/x' }),
        theirs: expect.objectContaining({ url: 'https://b.example.com/x' }),
        base: expect.objectContaining({ url: 'https://tools.example.com/lookup' }),
      },
    ]);
    expect(JSON.stringify(conflicts)).not.toContain('v1.x'); // never the sealed headers
    const resolved = run(
      [
        {
          type: 'MergeBranch',
          branchId: 'b3',
          message: '',
          resolutions: [{ path: ['tools', 'lookup'], strategy: 'theirs' }],
          deploymentId: 'd3',
          actor: 'k',
        },
      ],
      state,
    );
    expect(resolved.state.snapshots.get(3)!.tools!.get('lookup')!.url).toBe('https://b.example.com/x');
  });

  it('rotating issues a new secret, marked as a rotation once one exists', () => {
    const { events } = run(
      [
        { type: 'RotateToolSecret', secret: SECRET },
        { type: 'RotateToolSecret', secret: SECRET },
      ],
      created(),
    );
    expect(events.map((e) => e.type === 'ToolSecretIssued' && e.data.rotated)).toEqual([false, true]);
  });
});
