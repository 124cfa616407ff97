import { projectedReadModel, type ProjectedReadModel } from '../../test/support/projection-spec';
import { accountsProjection } from './accounts.projection';
import { accountsQueries, type AccountsQueries } from './queries';

const stream = 'account-acme';

describe('accounts projection', () => {
  let rm: ProjectedReadModel;
  let queries: AccountsQueries;

  beforeEach(async () => {
    rm = await projectedReadModel(accountsProjection);
    queries = accountsQueries({ source: () => rm.source });
  });
  afterEach(() => rm.close());

  it('given an account, a connector, a number and settings: one row each, read back by the queries', async () => {
    await rm.given(
      {
        stream,
        type: 'AccountCreated',
        data: { accountId: 'acme', name: 'Acme', region: 'eu', createdAt: '2026-05-01T00:00:00.000Z' },
      },
      {
        stream,
        type: 'ConnectorCreated',
        data: {
          connectorId: 'con_1',
          accountId: 'acme',
          agentId: 'ag1',
          kind: 'messaging',
          environment: 'live',
          hostDomain: null,
          tokenDigest: 'digest-1',
          sealedWebhookSecret: null,
          createdAt: '2026-05-01T00:01:00.000Z',
        },
      },
      {
        stream,
        type: 'PhoneNumberProvisioned',
        data: {
          number: '+15550001',
          accountId: 'acme',
          agentId: 'ag1',
          environment: 'live',
          provisionedAt: '2026-05-01T00:02:00.000Z',
        },
      },
      {
        stream,
        type: 'AgentSettingsChanged',
        data: { agentId: 'ag1', accountId: 'acme', chunkedStreaming: true, changedAt: '2026-05-01T00:03:00.000Z' },
      },
    );
    expect(await rm.rows('SELECT id, name, region, created_at FROM account')).toEqual([
      { id: 'acme', name: 'Acme', region: 'eu', created_at: '2026-05-01T00:00:00.000Z' },
    ]);
    expect(await queries.accounts()).toEqual([expect.objectContaining({ id: 'acme', name: 'Acme' })]);
    expect((await queries.connectorByDigest('digest-1')).row).toMatchObject({
      id: 'con_1',
      kind: 'messaging',
      agent_id: 'ag1',
    });
    expect((await queries.connectorById('missing')).row).toBeUndefined();
    expect((await queries.phoneNumbersOf('ag1', 'live')).map((n) => n.number)).toEqual(['+15550001']);
    expect(await queries.phoneNumber('ag1', 'sandbox', '+15550001')).toBeNull();
    expect(Boolean((await queries.chunkedStreaming('ag1')).row?.chunked_streaming)).toBe(true);
  });
});
