import { accountStream } from '../../src/accounts/account.events';
import { newTestEvent } from '../../src/event-store/event-store.contract';
import { EVENT_STORE, type EventStore } from '../../src/event-store/event-store.port';
import { createAccount, op, operatorKey, withKey } from '../helpers/keys-fixtures';
import { projectionsCli as cli } from '../helpers/projections-cli';
import { request, startTestApp, type TestApp } from '../helpers/test-app';
import { waitUntil } from '../fixtures/counter-projection';

/**
 * Issue 30, finding 1, through the real app: an api-keys event the projection cannot apply (a
 * rename to null, appended straight to the log as the old validation let it be) no longer stops
 * the read model every account authenticates against.
 */
describe('a poison api-keys event (issue 30, finding 1)', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(async () => t?.close());

  it('is dead-lettered: keys created after it authenticate, deleted keys stop, readyz is 200 degraded, the CLI lists, retries and verify reports it', async () => {
    const victim = await createAccount(t, 'Victim');
    const other = await createAccount(t, 'Other');
    const renamed = await operatorKey(t, victim, { name: 'to be renamed' });
    const doomed = await operatorKey(t, other, { name: 'doomed' });

    const store = t.app.get<symbol, EventStore>(EVENT_STORE);
    const bad = await store.append(accountStream(victim), [
      newTestEvent('ApiKeyRenamed', {
        accountId: victim,
        keyId: renamed.id,
        name: null,
        renamedAt: new Date().toISOString(),
      }),
    ]);

    // a key created after the poison event authenticates (read-your-writes past it is released)
    const fresh = await operatorKey(t, other, { name: 'fresh' });
    expect((await request(`${t.url}/v1/api-keys/self`, { headers: withKey(fresh.key) })).status).toBe(200);
    // a key deleted after it stops working
    expect(
      (await request(`${t.url}/v1/accounts/${other}/api-keys/${doomed.id}`, { method: 'DELETE', headers: op(t) }))
        .status,
    ).toBe(204);
    expect((await request(`${t.url}/v1/api-keys/self`, { headers: withKey(doomed.key) })).status).toBe(401);
    // the renamed key keeps its old name and works: the rename is what is missing
    expect((await request(`${t.url}/v1/api-keys/self`, { headers: withKey(renamed.key) })).body).toMatchObject({
      name: 'to be renamed',
    });

    const ready = await request(`${t.url}/readyz`);
    expect(ready.status).toBe(200);
    expect(ready.body).toMatchObject({ status: 'ready', health: 'degraded' });
    expect(ready.body.projections.find((p: { name: string }) => p.name === 'api-keys')).toMatchObject({
      state: 'serving',
      health: 'degraded',
      deadLetters: 1,
      error: null,
    });
    expect(ready.body.projections.filter((p: { health: string }) => p.health === 'degraded')).toHaveLength(1);

    const metrics = await request(`${t.url}/metrics`, { headers: op(t) });
    expect(metrics.body).toContain('parley_dead_letters_total{kind="projection",name="api-keys"} 1');
    expect(metrics.body).toContain('parley_dead_letters_open{kind="projection",name="api-keys"} 1');

    const listed = await cli(t, ['dead-letters', 'api-keys']);
    expect(listed.code).toBe(0);
    expect(listed.text).toContain(`projection:api-keys`);
    expect(listed.text).toContain(bad.position);
    expect(listed.text).toContain('ApiKeyRenamed');
    expect(listed.text).toMatch(/NOT NULL|null value/i);
    expect(listed.text).toContain('1 open');

    // the handler is not fixed (the event itself is bad): the retry leaves it open, exit code 1
    const retried = await cli(t, ['retry', 'api-keys', bad.position]);
    expect(retried.code).toBe(1);
    expect(retried.text).toContain('0 dead letter(s) applied and resolved, 1 still failing');
    const json = await cli(t, ['dead-letters', '--json']);
    expect(JSON.parse(json.text)).toEqual([
      expect.objectContaining({
        kind: 'projection',
        name: 'api-keys',
        position: bad.position,
        status: 'open',
        attempts: 4,
      }),
    ]);

    const verified = await cli(t, ['verify', 'api-keys']);
    expect(verified.code).toBe(1);
    expect(verified.text).toContain(`dead letter at ${bad.position} (ApiKeyRenamed`);

    // and the app keeps going: another key, another read-your-writes
    const after = await operatorKey(t, victim, { name: 'after' });
    await waitUntil(
      async () => (await request(`${t.url}/v1/api-keys/self`, { headers: withKey(after.key) })).status === 200,
      'a later key authenticates',
    );
  });
});
