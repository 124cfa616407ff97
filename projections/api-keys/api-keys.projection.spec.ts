import { projectedReadModel, type ProjectedReadModel } from '../../test/support/projection-spec';
import { apiKeysProjection } from './api-keys.projection';
import { apiKeysQueries } from './queries';

const stream = 'account-acme';
const created = (keyId: string, permissions: string[]) => ({
  stream,
  type: 'ApiKeyCreated',
  data: {
    keyId,
    accountId: 'acme',
    name: keyId,
    agents: 'all',
    permissions,
    expiresAt: '2027-01-01T00:00:00.000Z',
    keyDigest: `digest-${keyId}`,
    last4: 'abcd',
    issuedBy: 'operator',
    createdAt: '2026-05-01T00:00:00.000Z',
  },
});

describe('api-keys projection', () => {
  let rm: ProjectedReadModel;
  beforeEach(async () => {
    rm = await projectedReadModel(apiKeysProjection);
  });
  afterEach(() => rm.close());

  it('given keys created, renamed and deleted: deleted keys stay with deleted_at, and leave the live keys', async () => {
    await rm.given(created('k1', ['desk']), created('k2', ['conversations:read']));
    await rm.given(
      { stream, type: 'ApiKeyRenamed', data: { keyId: 'k1', name: 'desk key' } },
      { stream, type: 'ApiKeyDeleted', data: { keyId: 'k2', deletedAt: '2026-05-02T00:00:00.000Z' } },
    );
    expect(await rm.rows('SELECT id, name, agents, permissions, deleted_at FROM api_key ORDER BY id')).toEqual([
      { id: 'k1', name: 'desk key', agents: '"all"', permissions: '["desk"]', deleted_at: null },
      {
        id: 'k2',
        name: 'k2',
        agents: '"all"',
        permissions: '["conversations:read"]',
        deleted_at: '2026-05-02T00:00:00.000Z',
      },
    ]);
    const queries = apiKeysQueries({ source: () => rm.source });
    expect((await queries.keysOf('acme')).map((k) => k.id)).toEqual(['k1', 'k2']);
    expect((await queries.liveKeysOf('acme')).rows).toEqual([
      { agents: '"all"', permissions: '["desk"]', expires_at: '2027-01-01T00:00:00.000Z' },
    ]);
  });
});
