import { DeferredReadModels } from '../../test/fixtures/deferred-read-models';
import { ManualClock } from '../platform/clock/clock';
import { KeyAuthenticator } from '../platform/auth/key-authenticator';
import { ServerSecret } from '../platform/auth/server-secret';
import { ReadModelKeyLookup } from './read-model-key-lookup';

const secret = new ServerSecret('test-secret');
const VALUE = 'sk_presented';
const row = (deletedAt: string | null = null) => ({
  id: 'key_1',
  account_id: 'acme',
  name: 'k',
  agents: '"all"',
  permissions: '["agents"]',
  expires_at: '2030-01-01T00:00:00.000Z',
  key_digest: secret.digest(VALUE),
  last4: 'nted',
  deleted_at: deletedAt,
});

/**
 * On PostgreSQL a key lookup answers after a round trip. A DELETE commits meanwhile: the lookup's
 * answer must not be remembered past that invalidation, or the deleted key would keep working.
 */
describe('KeyAuthenticator on a read model that answers later', () => {
  const clock = new ManualClock(Date.parse('2026-06-01T00:00:00.000Z'));

  it('remembers a verified key: the next request is answered at once', async () => {
    const db = new DeferredReadModels();
    const keys = new KeyAuthenticator(new ReadModelKeyLookup(db.asReadModels()), secret, clock);
    const first = keys.authenticate(VALUE);
    expect(first).toBeInstanceOf(Promise);
    db.answer([row()]);
    expect((await first).id).toBe('key_1');
    expect((keys.authenticate(VALUE) as { id: string }).id).toBe('key_1');
  });

  it('does not remember an answer that a key event overtook: the deletion holds for the next request', async () => {
    const db = new DeferredReadModels();
    const keys = new KeyAuthenticator(new ReadModelKeyLookup(db.asReadModels()), secret, clock);
    const first = keys.authenticate(VALUE);
    db.applied('api-keys', 'ApiKeyDeleted');
    db.answer([row()]);
    await first;
    const second = keys.authenticate(VALUE);
    expect(second).toBeInstanceOf(Promise);
    db.answer([row('2026-06-01T00:00:00.000Z')]);
    await expect(second).rejects.toMatchObject({ code: 'API_KEY_INVALID' });
  });

  it('answers 401 for an unknown key, after the lookup', async () => {
    const db = new DeferredReadModels();
    const keys = new KeyAuthenticator(new ReadModelKeyLookup(db.asReadModels()), secret, clock);
    const lookup = keys.authenticate('sk_unknown');
    db.answer([]);
    await expect(lookup).rejects.toMatchObject({ code: 'API_KEY_INVALID' });
  });
});
