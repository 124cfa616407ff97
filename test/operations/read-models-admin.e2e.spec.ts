import { accountStream } from '../../src/accounts/account.events';
import { newTestEvent } from '../../src/event-store/event-store.contract';
import { EVENT_STORE, type EventStore } from '../../src/event-store/event-store.port';
import { waitUntil } from '../fixtures/counter-projection';
import { createAccount, op, operatorKey, withKey } from '../helpers/keys-fixtures';
import { expectEnvelope, request, startTestApp, type TestApp } from '../helpers/test-app';
import type { Json } from '../helpers/json';

/**
 * The operator's read-side routes Studio's operator pages use (issue 34): status and lag, a
 * rebuild that runs in the background and ends with a new active generation, dead letters.
 */
describe('operator API: read models, rebuild, dead letters', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(async () => t?.close());

  const status = async () => {
    const answer = await request(`${t.url}/admin/v1/read-models`, { headers: op(t) });
    expect(answer.status).toBe(200);
    return answer.body as Json;
  };

  it('answers only the operator', async () => {
    const account = await createAccount(t, 'Tenant');
    const key = await operatorKey(t, account, { name: 'all of it' });
    for (const [method, path] of [
      ['GET', '/admin/v1/read-models'],
      ['POST', '/admin/v1/read-models/accounts/rebuild'],
      ['GET', '/admin/v1/dead-letters'],
    ]) {
      expectEnvelope(await request(`${t.url}${path}`, { method }), 401);
      expectEnvelope(await request(`${t.url}${path}`, { method, headers: withKey(key.key) }), 401);
    }
  });

  it('shows every read model serving, with its lag, and rebuilds one into a new active generation', async () => {
    const account = await createAccount(t, 'Rebuilt Co');
    const before = await status();
    const accounts = before.readModels.find((r: Json) => r.name === 'accounts');
    expect(accounts).toMatchObject({ state: 'serving', deadLetters: 0 });
    expect(typeof accounts.lagEvents).toBe('number');
    expect(before.events).toBeGreaterThan(0);
    const generation = accounts.generation as number;

    const started = await request(`${t.url}/admin/v1/read-models/accounts/rebuild`, { method: 'POST', headers: op(t) });
    expect(started.status).toBe(202);
    expect(started.body).toMatchObject({ name: 'accounts', state: 'running', finishedAt: null });

    let job: Json = null;
    await waitUntil(
      async () => {
        job = (await status()).rebuilds.find((r: Json) => r.name === 'accounts');
        return job?.state !== 'running';
      },
      'the rebuild to end',
      20_000,
      100,
    );
    expect(job).toMatchObject({ state: 'done', error: null, report: { name: 'accounts' } });
    expect(job.report.generation).toBeGreaterThan(generation);
    await waitUntil(
      async () =>
        (await status()).readModels.find((r: Json) => r.name === 'accounts').generation === job.report.generation,
      'the runner to switch to the rebuilt generation',
      10_000,
      100,
    );
    // the rebuilt read model serves what the old one did
    const listed = await request(`${t.url}/admin/v1/accounts`, { headers: op(t) });
    expect(listed.body.accounts.map((a: Json) => a.accountId)).toContain(account);
    // the generation it replaced is no longer the active one
    const generations = (await status()).generations.filter((g: Json) => g.name === 'accounts');
    expect(generations.find((g: Json) => g.generation === job.report.generation)).toMatchObject({ status: 'active' });
  });

  it('refuses an unknown read model and a bad filter', async () => {
    expectEnvelope(
      await request(`${t.url}/admin/v1/read-models/no-such-model/rebuild`, { method: 'POST', headers: op(t) }),
      404,
      'READ_MODEL_NOT_FOUND',
    );
    expectEnvelope(await request(`${t.url}/admin/v1/dead-letters?status=sideways`, { headers: op(t) }), 400);
  });

  it('lists a dead-lettered event, and its read model counts it', async () => {
    const account = await createAccount(t, 'Poisoned');
    const renamed = await operatorKey(t, account, { name: 'to be renamed' });
    const store = t.app.get<symbol, EventStore>(EVENT_STORE);
    // a rename to null: the api-keys projection cannot apply it (as in test/read-models/dead-letters.e2e.spec.ts)
    await store.append(accountStream(account), [
      newTestEvent('ApiKeyRenamed', {
        accountId: account,
        keyId: renamed.id,
        name: null,
        renamedAt: new Date().toISOString(),
      }),
    ]);
    let letters: Json[] = [];
    await waitUntil(
      async () => {
        const answer = await request(`${t.url}/admin/v1/dead-letters`, { headers: op(t) });
        letters = answer.body.deadLetters;
        return letters.length > 0;
      },
      'the dead letter',
      10_000,
      100,
    );
    expect(letters[0]).toMatchObject({
      kind: 'projection',
      name: 'api-keys',
      eventType: 'ApiKeyRenamed',
      status: 'open',
    });
    const apiKeys = (await status()).readModels.find((r: Json) => r.name === 'api-keys');
    expect(apiKeys).toMatchObject({ deadLetters: 1, degraded: true });
  });
});
