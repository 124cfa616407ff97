import { projectedReadModel, type ProjectedReadModel } from '../../test/support/projection-spec';
import { agentsProjection } from './agents.projection';
import { agentsQueries } from './queries';

const stream = 'agent-ag1';
const at = (minute: number) => `2026-05-01T00:${String(minute).padStart(2, '0')}:00.000Z`;
const topic = (id: string, name: string) => ({
  id,
  name,
  content: `${name} content`,
  exampleQueries: [name],
  actions: '',
  isActive: true,
});

describe('agents projection', () => {
  let rm: ProjectedReadModel;
  beforeEach(async () => {
    rm = await projectedReadModel(agentsProjection);
  });
  afterEach(() => rm.close());

  it('given an agent, a branch with a topic merged, and a deployment: main versions, branches and the active deployment', async () => {
    await rm.given(
      {
        stream,
        type: 'AgentCreated',
        data: {
          agentId: 'ag1',
          accountId: 'acme',
          name: 'Helper',
          greeting: 'Hi',
          languageCode: 'en-GB',
          createdAt: at(0),
        },
      },
      {
        stream,
        type: 'TopicAdded',
        data: { agentId: 'ag1', branchId: 'main', topic: topic('t1', 'hours'), addedAt: at(1) },
      },
      {
        stream,
        type: 'BranchCreated',
        data: { agentId: 'ag1', branchId: 'b1', branchName: 'draft', baseSequence: 0, createdAt: at(2) },
      },
      {
        stream,
        type: 'TopicAdded',
        data: { agentId: 'ag1', branchId: 'b1', topic: topic('t2', 'prices'), addedAt: at(3) },
      },
      {
        stream,
        type: 'BranchMerged',
        data: {
          agentId: 'ag1',
          branchId: 'b1',
          sequence: 1,
          changes: { upserted: [topic('t2', 'prices')], removed: [], behavior: 'Be brief.' },
          mergedAt: at(4),
        },
      },
      {
        stream,
        type: 'DeploymentCreated',
        data: {
          agentId: 'ag1',
          accountId: 'acme',
          deployment: {
            deploymentId: 'd1',
            environment: 'sandbox',
            version: 1,
            artifactVersion: 1,
            createdBy: 'k',
            createdAt: at(5),
            message: '',
            promotedFrom: null,
          },
        },
      },
    );
    const queries = agentsQueries({ source: () => rm.source });
    // the branch began as a copy of main's topics
    expect((await queries.topicsOf('ag1', 'b1')).map((t) => t.name)).toEqual(['hours', 'prices']);
    expect((await queries.topicsOf('ag1', 'main')).map((t) => t.name)).toEqual(['hours', 'prices']);
    expect((await queries.branchesOf('ag1')).map((b) => [b.id, b.status])).toEqual([
      ['main', 'open'],
      ['b1', 'merged'],
    ]);
    const version = await queries.mainVersionOrFail('ag1', 1);
    expect({
      behavior: version.behavior,
      topics: (JSON.parse(version.topics) as Array<{ name: string }>).map((t) => t.name),
    }).toEqual({ behavior: 'Be brief.', topics: ['hours', 'prices'] });
    expect(await queries.agent('ag1')).toMatchObject({ branchCount: 2, mainSequence: 1, updatedAt: at(5) });
    expect((await queries.activeDeploymentId('ag1', 'sandbox')).row).toEqual({ deployment_id: 'd1' });
    expect((await queries.ownerOf('ag1')).row).toEqual({ account_id: 'acme', deleted_at: null });
    expect((await queries.nameOf('ag1')).row).toEqual({ name: 'Helper' });
  });
});
