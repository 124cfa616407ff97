import { IdempotencyStore } from '../../src/platform/idempotency/idempotency.store';
import { describeEachPlatformDatabase, type PlatformDatabase } from '../support/platform-databases';

const T0 = new Date('2030-01-01T00:00:00.000Z');
const later = (ms: number) => new Date(T0.getTime() + ms);
const DAY = 24 * 3600_000;

/** The Idempotency-Key records (contract §2) on a real platform database: the SQLite file, and PostgreSQL. */
describeEachPlatformDatabase('idempotency store', (databases) => {
  let database: PlatformDatabase;
  let store: IdempotencyStore;
  const id = IdempotencyStore.recordId('key_1', 'POST', '/v1/things', 'k-1');
  const body = IdempotencyStore.requestHash({ name: 'a' });

  beforeEach(async () => {
    database = await databases.fresh();
    store = new IdempotencyStore(await database.open());
  });

  it('the first request gets the key; a repeat waits while it runs, then replays its answer', async () => {
    expect(await store.reserve(id, body, T0)).toEqual({ kind: 'new' });
    expect(await store.reserve(id, body, later(10))).toEqual({ kind: 'in_progress' });
    await store.complete(id, 201, { id: 'thing-1', n: 2.5 }, { location: '/v1/things/thing-1' });
    expect(await store.reserve(id, body, later(20))).toEqual({ kind: 'replay', status: 201, body: { id: 'thing-1', n: 2.5 }, headers: { location: '/v1/things/thing-1' } });
  });

  it('the same key with another body is a mismatch, running or done', async () => {
    await store.reserve(id, body, T0);
    const other = IdempotencyStore.requestHash({ name: 'b' });
    expect(await store.reserve(id, other, later(1))).toEqual({ kind: 'mismatch' });
    await store.complete(id, 200, null, {});
    expect(await store.reserve(id, other, later(2))).toEqual({ kind: 'mismatch' });
    expect(await store.reserve(id, body, later(3))).toEqual({ kind: 'replay', status: 200, body: null, headers: {} });
  });

  it('a failed request releases the key (a completed one keeps it)', async () => {
    await store.reserve(id, body, T0);
    await store.release(id);
    expect(await store.reserve(id, IdempotencyStore.requestHash({ name: 'b' }), later(1))).toEqual({ kind: 'new' });
    await store.complete(id, 201, {}, {});
    await store.release(id);
    expect((await store.reserve(id, body, later(2))).kind).toBe('mismatch');
  });

  it('records last 24 hours on the platform clock: then the key is new again, and purge deletes them', async () => {
    await store.reserve(id, body, T0);
    await store.complete(id, 201, { v: 1 }, {});
    expect((await store.reserve(id, IdempotencyStore.requestHash({ other: true }), later(DAY - 1))).kind).toBe('mismatch');
    expect(await store.reserve(id, IdempotencyStore.requestHash({ other: true }), later(DAY))).toEqual({ kind: 'new' });
    const second = IdempotencyStore.recordId('key_1', 'POST', '/v1/things', 'k-2');
    await store.reserve(second, body, later(DAY));
    expect(await store.purgeExpired(later(2 * DAY - 1))).toBe(0);
    expect(await store.purgeExpired(later(2 * DAY + 1))).toBe(2);
    expect(await store.reserve(second, body, later(2 * DAY + 2))).toEqual({ kind: 'new' });
  });

  it('of many processes racing with one key, exactly one gets it', async () => {
    const stores = [store, ...(await Promise.all([1, 2, 3].map(async () => new IdempotencyStore(await database.open()))))];
    const keys = Array.from({ length: 20 }, (_, i) => IdempotencyStore.recordId('key_1', 'POST', '/v1/things', `race-${i}`));
    for (const key of keys) {
      const answers = await Promise.all(stores.flatMap((s) => [s.reserve(key, body, T0), s.reserve(key, body, T0)]));
      expect(answers.filter((a) => a.kind === 'new')).toHaveLength(1);
      expect(answers.filter((a) => a.kind !== 'new').every((a) => a.kind === 'in_progress')).toBe(true);
    }
  });
});
