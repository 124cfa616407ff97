import { projectedReadModel, type ProjectedReadModel } from '../../test/support/projection-spec';
import { agentTestsProjection } from './agent-tests.projection';
import { agentTestsQueries } from './queries';

const stream = 'agent-ag1';
const AT = '2026-05-01T00:00:00.000Z';
const test = (id: string, name: string, user = 'hi') => ({ id, name, turns: [{ user }], state: {} });

describe('agent-tests projection', () => {
  let rm: ProjectedReadModel;
  beforeEach(async () => {
    rm = await projectedReadModel(agentTestsProjection);
  });
  afterEach(() => rm.close());

  it('a branch starts with main’s cases; a merge applies its changes onto main; a deleted branch keeps none', async () => {
    const names = async (branchId: string) =>
      (await agentTestsQueries({ source: () => rm.source }).testsOf('ag1', branchId)).map(
        (t) => `${t.name}:${t.turns}`,
      );
    await rm.given(
      {
        stream,
        type: 'BranchCreated',
        data: { agentId: 'ag1', branchId: 'b1', branchName: 'one', baseSequence: 0, createdAt: AT },
      },
      {
        stream,
        type: 'TestCaseAdded',
        data: { agentId: 'ag1', branchId: 'b1', test: test('t1', 'greets'), addedAt: AT },
      },
      {
        stream,
        type: 'BranchMerged',
        data: {
          agentId: 'ag1',
          branchId: 'b1',
          sequence: 1,
          message: '',
          changes: { upserted: [], removed: [], tests: { upserted: [test('t1', 'greets')], removed: [] } },
          mergedAt: AT,
        },
      },
      {
        stream,
        type: 'BranchCreated',
        data: { agentId: 'ag1', branchId: 'b2', branchName: 'two', baseSequence: 1, createdAt: AT },
      },
      {
        stream,
        type: 'TestCaseEdited',
        data: { agentId: 'ag1', branchId: 'b2', test: test('t1', 'welcomes', 'hello'), editedAt: AT },
      },
    );
    expect(await names('main')).toEqual(['greets:[{"user":"hi"}]']);
    expect(await names('b2')).toEqual(['welcomes:[{"user":"hello"}]']);
    await rm.given(
      {
        stream,
        type: 'BranchMerged',
        data: {
          agentId: 'ag1',
          branchId: 'b2',
          sequence: 2,
          message: '',
          changes: {
            upserted: [],
            removed: [],
            tests: { upserted: [test('t1', 'welcomes', 'hello')], removed: ['greets'] },
          },
          mergedAt: AT,
        },
      },
      { stream, type: 'BranchDeleted', data: { agentId: 'ag1', branchId: 'b1', deletedAt: AT } },
    );
    expect(await names('main')).toEqual(['welcomes:[{"user":"hello"}]']);
    expect(await names('b1')).toEqual([]);
  });
});
