import { projectedReadModel, type ProjectedReadModel } from '../../test/support/projection-spec';
import { webhookEndpointsQueries } from './queries';
import { webhookEndpointsProjection } from './webhook-endpoints.projection';

const stream = 'webhook-endpoints-acme';
const created = (endpointId: string, createdAt: string) => ({
  stream,
  type: 'WebhookEndpointCreated',
  data: {
    endpointId,
    accountId: 'acme',
    name: endpointId,
    url: 'https://example.com/hook',
    enabled: true,
    eventTypes: ['alerts.triggered'],
    headers: { sealed: 'sealed-headers', digest: 'd' },
    timeoutMs: 5000,
    sealedSecret: 'sealed',
    secretLast4: 'abcd',
    createdAt,
  },
});

/** The management rows; when each endpoint listened to what is specified in subscribed-endpoints.int.spec.ts. */
describe('webhook-endpoints projection', () => {
  let rm: ProjectedReadModel;
  beforeEach(async () => {
    rm = await projectedReadModel(webhookEndpointsProjection);
  });
  afterEach(() => rm.close());

  it('given endpoints created, disabled, rotated and deleted: the live ones listed, the deleted one kept', async () => {
    await rm.given(
      created('whe_a', '2026-05-01T00:00:00.000Z'),
      created('whe_b', '2026-05-01T00:01:00.000Z'),
      created('whe_c', '2026-05-01T00:02:00.000Z'),
    );
    await rm.given(
      {
        stream,
        type: 'WebhookEndpointUpdated',
        data: {
          endpointId: 'whe_a',
          accountId: 'acme',
          changes: { enabled: false },
          updatedAt: '2026-05-01T01:00:00.000Z',
        },
      },
      {
        stream,
        type: 'WebhookEndpointSecretRotated',
        data: {
          endpointId: 'whe_b',
          accountId: 'acme',
          sealedSecret: 'sealed-2',
          secretLast4: 'wxyz',
          rotatedAt: '2026-05-01T01:00:00.000Z',
        },
      },
      {
        stream,
        type: 'WebhookEndpointDeleted',
        data: { endpointId: 'whe_c', accountId: 'acme', deletedAt: '2026-05-01T01:00:00.000Z' },
      },
    );
    expect(await rm.rows('SELECT id, enabled, secret_last4, deleted_at FROM webhook_endpoint ORDER BY id')).toEqual([
      { id: 'whe_a', enabled: 0, secret_last4: 'abcd', deleted_at: null },
      { id: 'whe_b', enabled: 1, secret_last4: 'wxyz', deleted_at: null },
      { id: 'whe_c', enabled: 1, secret_last4: 'abcd', deleted_at: '2026-05-01T01:00:00.000Z' },
    ]);
    const queries = webhookEndpointsQueries({ source: () => rm.source });
    expect((await queries.endpointsOf('acme')).map((e) => e.id)).toEqual(['whe_a', 'whe_b']);
    expect(await queries.endpoint('acme', 'whe_c')).toBeNull();
    expect(await queries.endpoint('other', 'whe_a')).toBeNull();
  });
});
