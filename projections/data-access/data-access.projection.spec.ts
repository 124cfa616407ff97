import { projectedReadModel, type ProjectedReadModel } from '../../test/support/projection-spec';
import { dataAccessProjection } from './data-access.projection';
import { dataAccessQueries } from './queries';

const configured = (showTranscripts: boolean, responseMetrics: string[]) => ({
  stream: 'account-acme',
  type: 'DataAccessConfigured',
  data: {
    agentId: 'ag1',
    accountId: 'acme',
    responseMetrics,
    showTranscripts,
    configuredAt: '2026-05-01T00:00:00.000Z',
  },
});

describe('data-access projection', () => {
  let rm: ProjectedReadModel;
  beforeEach(async () => {
    rm = await projectedReadModel(dataAccessProjection);
  });
  afterEach(() => rm.close());

  it('given a project configured twice: one row, the latest configuration', async () => {
    await rm.given(configured(true, ['latency']), configured(false, []));
    const queries = dataAccessQueries({ source: () => rm.source });
    const { row } = await queries.ofAgent('ag1');
    expect({ metrics: JSON.parse(row!.response_metrics), show: Boolean(row!.show_transcripts) }).toEqual({
      metrics: [],
      show: false,
    });
    expect(await rm.rows('SELECT count(*) AS n FROM data_access')).toEqual([{ n: 1 }]);
    expect((await queries.ofAgent('other')).row).toBeUndefined();
  });
});
