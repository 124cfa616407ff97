import { projectedReadModel, type ProjectedReadModel } from '../../test/support/projection-spec';
import { alertsProjection } from './alerts.projection';
import { alertsQueries } from './queries';

const stream = 'alert-rules-acme';
const created = (ruleId: string, createdAt: string) => ({
  stream,
  type: 'AlertRuleCreated',
  data: {
    ruleId,
    accountId: 'acme',
    projectId: null,
    name: ruleId,
    metric: 'api_errors',
    operator: 'gt',
    thresholdValue: 3,
    windowDuration: '5m',
    enabled: true,
    createdAt,
  },
});

describe('alerts projection', () => {
  let rm: ProjectedReadModel;
  beforeEach(async () => {
    rm = await projectedReadModel(alertsProjection);
  });
  afterEach(() => rm.close());

  it('given rules created, evaluated, edited and deleted: each row where the events left it', async () => {
    await rm.given(
      created('ar_1', '2026-05-01T00:00:00.000Z'),
      created('ar_2', '2026-05-01T00:01:00.000Z'),
      created('ar_3', '2026-05-01T00:02:00.000Z'),
    );
    await rm.given(
      {
        stream: 'alert-rule-ar_1',
        type: 'AlertRuleStateChanged',
        data: {
          ruleId: 'ar_1',
          to: 'alert',
          since: '2026-05-01T01:00:00.000Z',
          currentValue: 5,
          evaluatedAt: '2026-05-01T01:00:00.000Z',
        },
      },
      {
        stream,
        type: 'AlertRuleUpdated',
        data: { ruleId: 'ar_2', changes: { enabled: false }, updatedAt: '2026-05-01T01:00:00.000Z' },
      },
      { stream, type: 'AlertRuleDeleted', data: { ruleId: 'ar_3', deletedAt: '2026-05-01T01:00:00.000Z' } },
    );
    expect(await rm.rows('SELECT id, current_state, current_value, deleted_at FROM alert_rule ORDER BY id')).toEqual([
      { id: 'ar_1', current_state: 'alert', current_value: 5, deleted_at: null },
      { id: 'ar_2', current_state: 'ok', current_value: null, deleted_at: null },
      { id: 'ar_3', current_state: 'ok', current_value: null, deleted_at: '2026-05-01T01:00:00.000Z' },
    ]);
    const queries = alertsQueries({ source: () => rm.source });
    expect((await queries.rules('acme', {})).map((r) => r.id)).toEqual(['ar_1', 'ar_2']);
    expect((await queries.rules('acme', { enabled: false })).map((r) => r.id)).toEqual(['ar_2']);
    expect((await queries.firing('acme')).map((r) => r.id)).toEqual(['ar_1']);
    expect((await queries.enabledRules()).rows.map((r) => r.id)).toEqual(['ar_1']);
  });
});
