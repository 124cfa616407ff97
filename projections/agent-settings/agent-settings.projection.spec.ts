import { projectedReadModel, type ProjectedReadModel } from '../../test/support/projection-spec';
import { agentSettingsProjection } from './agent-settings.projection';
import { agentSettingsQueries } from './queries';

const stream = 'agent-ag1';
const AT = '2026-05-01T00:00:00.000Z';
const merged = (branchId: string, sequence: number, settings?: Record<string, unknown>) => ({
  stream,
  type: 'BranchMerged',
  data: {
    agentId: 'ag1',
    branchId,
    sequence,
    message: '',
    changes: { upserted: [], removed: [], ...(settings ? { settings } : {}) },
    mergedAt: AT,
  },
});

describe('agent-settings projection', () => {
  let rm: ProjectedReadModel;
  beforeEach(async () => {
    rm = await projectedReadModel(agentSettingsProjection);
  });
  afterEach(() => rm.close());

  it('keeps each branch’s settings and main’s at every sequence; a branch starts from main’s', async () => {
    const q = agentSettingsQueries({ source: () => rm.source });
    await rm.given(
      {
        stream,
        type: 'AgentCreated',
        data: { agentId: 'ag1', accountId: 'acc', name: 'Bot', greeting: 'Hi', languageCode: 'en-GB', createdAt: AT },
      },
      {
        stream,
        type: 'BranchCreated',
        data: { agentId: 'ag1', branchId: 'b1', branchName: 'one', baseSequence: 0, createdAt: AT },
      },
      {
        stream,
        type: 'RuntimeSettingsEdited',
        data: { agentId: 'ag1', branchId: 'b1', settings: { confidence_threshold: 0.7 }, editedAt: AT },
      },
    );
    expect(await q.ofBranch('ag1', 'b1')).toEqual({ confidence_threshold: 0.7 });
    expect(await q.ofBranch('ag1', 'main')).toEqual({});
    await rm.given(merged('b1', 1, { confidence_threshold: 0.7 }), {
      stream,
      type: 'BranchCreated',
      data: { agentId: 'ag1', branchId: 'b2', branchName: 'two', baseSequence: 1, createdAt: AT },
    });
    expect(await q.ofBranch('ag1', 'b2')).toEqual({ confidence_threshold: 0.7 });
    // a merge that leaves the settings alone still records main's at its sequence
    await rm.given(merged('b2', 2), {
      stream,
      type: 'BranchDeleted',
      data: { agentId: 'ag1', branchId: 'b1', deletedAt: AT },
    });
    expect(await q.ofMainVersion('ag1', 0)).toEqual({});
    expect(await q.ofMainVersion('ag1', 1)).toEqual({ confidence_threshold: 0.7 });
    expect(await q.ofMainVersion('ag1', 2)).toEqual({ confidence_threshold: 0.7 });
    expect(await q.ofBranch('ag1', 'b1')).toBeNull();
  });
});
