import { projectedReadModel, type ProjectedReadModel } from '../../test/support/projection-spec';
import type { Tool } from '../../src/agents/agent-tools.events';
import { agentToolsProjection } from './agent-tools.projection';
import { agentToolsQueries } from './queries';

const stream = 'agent-ag1';
const AT = '2026-05-01T00:00:00.000Z';
const tool = (id: string, name: string, url = 'https://a.example.com/x'): Tool => ({
  id,
  name,
  description: 'd',
  url,
  method: 'POST',
  parameters: { type: 'object' },
  headers: { sealed: 'v1.s', digest: 'dg' },
  timeoutMs: 3000,
});

describe('agent-tools projection', () => {
  let rm: ProjectedReadModel;
  beforeEach(async () => {
    rm = await projectedReadModel(agentToolsProjection);
  });
  afterEach(() => rm.close());

  it('branches copy main; a merge updates main and snapshots it; a deployment reads its version', async () => {
    const q = () => agentToolsQueries({ source: () => rm.source });
    const merged = (branchId: string, sequence: number, upserted: Tool[], removed: string[]) => ({
      stream,
      type: 'BranchMerged',
      data: {
        agentId: 'ag1',
        branchId,
        sequence,
        message: '',
        changes: { upserted: [], removed: [], tools: { upserted, removed } },
        mergedAt: AT,
      },
    });
    await rm.given(
      {
        stream,
        type: 'BranchCreated',
        data: { agentId: 'ag1', branchId: 'b1', branchName: 'one', baseSequence: 0, createdAt: AT },
      },
      { stream, type: 'ToolAdded', data: { agentId: 'ag1', branchId: 'b1', tool: tool('t1', 'lookup'), addedAt: AT } },
      {
        stream,
        type: 'ToolSecretIssued',
        data: { agentId: 'ag1', sealedSecret: 'v1.k', secretLast4: 'abcd', rotated: false, issuedAt: AT },
      },
      merged('b1', 1, [tool('t1', 'lookup')], []),
      {
        stream,
        type: 'BranchCreated',
        data: { agentId: 'ag1', branchId: 'b2', branchName: 'two', baseSequence: 1, createdAt: AT },
      },
      {
        stream,
        type: 'ToolEdited',
        data: { agentId: 'ag1', branchId: 'b2', tool: tool('t1', 'find', 'https://b.example.com/y'), editedAt: AT },
      },
    );
    expect((await q().toolsOf('ag1', 'b2')).map((t) => t.name)).toEqual(['find']);
    expect((await q().toolsOf('ag1', 'main')).map((t) => t.name)).toEqual(['lookup']);
    await rm.given(merged('b2', 3, [tool('t1', 'find', 'https://b.example.com/y')], ['lookup']));
    expect((await q().toolsAt('ag1', 0)).map((t) => t.name)).toEqual([]);
    expect((await q().toolsAt('ag1', 2)).map((t) => t.name)).toEqual(['lookup']); // a merge without tool changes
    expect((await q().toolsAt('ag1', 3)).map((t) => t.url)).toEqual(['https://b.example.com/y']);
    expect(await q().secretOf('ag1')).toMatchObject({ sealedSecret: 'v1.k', secretLast4: 'abcd' });
  });
});
