import { createHash } from 'node:crypto';
import { ServerSecret } from '../../src/platform/auth/server-secret';
import { IdempotencyStore } from '../../src/platform/idempotency/idempotency.store';
import { describeEachPlatformDatabase, type PlatformDatabase } from '../support/platform-databases';

const T0 = new Date('2030-01-01T00:00:00.000Z');
const later = (ms: number) => new Date(T0.getTime() + ms);
const DAY = 24 * 3600_000;
const secret = new ServerSecret('idempotency-store-test-secret-0123456789');

/** The Idempotency-Key records (contract §2) on a real platform database: the SQLite file, and PostgreSQL. */
describeEachPlatformDatabase('idempotency store', (databases) => {
  let database: PlatformDatabase;
  let store: IdempotencyStore;
  const id = IdempotencyStore.recordId('key_1', 'POST', '/v1/things', 'k-1');
  let body: string;
  const hash = (value: unknown) => store.requestHash(value);

  beforeEach(async () => {
    database = await databases.fresh();
    store = new IdempotencyStore(await database.open(), secret);
    body = hash({ name: 'a' });
  });

  it('the first request gets the key; a repeat waits while it runs, then replays its answer', async () => {
    expect(await store.reserve(id, body, T0)).toEqual({ kind: 'new' });
    expect(await store.reserve(id, body, later(10))).toEqual({ kind: 'in_progress' });
    await store.complete(id, 201, { id: 'thing-1', n: 2.5 }, { location: '/v1/things/thing-1' });
    expect(await store.reserve(id, body, later(20))).toEqual({
      kind: 'replay',
      status: 201,
      body: { id: 'thing-1', n: 2.5 },
      headers: { location: '/v1/things/thing-1' },
    });
  });

  it('the same key with another body is a mismatch, running or done', async () => {
    await store.reserve(id, body, T0);
    const other = hash({ name: 'b' });
    expect(await store.reserve(id, other, later(1))).toEqual({ kind: 'mismatch' });
    await store.complete(id, 200, null, {});
    expect(await store.reserve(id, other, later(2))).toEqual({ kind: 'mismatch' });
    expect(await store.reserve(id, body, later(3))).toEqual({ kind: 'replay', status: 200, body: null, headers: {} });
  });

  it('a failed request releases the key (a completed one keeps it)', async () => {
    await store.reserve(id, body, T0);
    await store.release(id);
    expect(await store.reserve(id, hash({ name: 'b' }), later(1))).toEqual({ kind: 'new' });
    await store.complete(id, 201, {}, {});
    await store.release(id);
    expect((await store.reserve(id, body, later(2))).kind).toBe('mismatch');
  });

  it('records last 24 hours on the platform clock: then the key is new again, and purge deletes them', async () => {
    await store.reserve(id, body, T0);
    await store.complete(id, 201, { v: 1 }, {});
    expect((await store.reserve(id, hash({ other: true }), later(DAY - 1))).kind).toBe('mismatch');
    expect(await store.reserve(id, hash({ other: true }), later(DAY))).toEqual({ kind: 'new' });
    const second = IdempotencyStore.recordId('key_1', 'POST', '/v1/things', 'k-2');
    await store.reserve(second, body, later(DAY));
    expect(await store.purgeExpired(later(2 * DAY - 1))).toBe(0);
    expect(await store.purgeExpired(later(2 * DAY + 1))).toBe(2);
    expect(await store.reserve(second, body, later(2 * DAY + 2))).toEqual({ kind: 'new' });
  });

  it('of many processes racing with one key, exactly one gets it', async () => {
    const stores = [
      store,
      ...(await Promise.all([1, 2, 3].map(async () => new IdempotencyStore(await database.open(), secret)))),
    ];
    const keys = Array.from({ length: 20 }, (_, i) =>
      IdempotencyStore.recordId('key_1', 'POST', '/v1/things', `race-${i}`),
    );
    for (const key of keys) {
      const answers = await Promise.all(stores.flatMap((s) => [s.reserve(key, body, T0), s.reserve(key, body, T0)]));
      expect(answers.filter((a) => a.kind === 'new')).toHaveLength(1);
      expect(answers.filter((a) => a.kind !== 'new').every((a) => a.kind === 'in_progress')).toBe(true);
    }
  });
  /** What the platform database holds for a record, read with plain SQL (as a stolen file or dump would be). */
  async function storedRow(recordId: string): Promise<{ body: string | null; request_hash: string }> {
    const source = await database.open();
    const sql = `SELECT body, request_hash FROM idempotency_record WHERE id = ${database.dialect === 'postgres' ? '$1' : '?'}`;
    const [row] = (await source.query(sql, [recordId])) as Array<{ body: string | null; request_hash: string }>;
    return row;
  }

  it('stores the first answer sealed: no secret of it in the table, and a replay opens it', async () => {
    const answer = {
      id: 'key_9',
      key: 'sk_abcdefghijklmnopqrstuvwxyz234567abcdefgh',
      signing_secret: 'whsec_0123456789abcdefghij',
      access_token: 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ4In0.c2ln',
    };
    await store.reserve(id, body, T0);
    await store.complete(id, 201, answer, {});
    const row = await storedRow(id);
    expect(row.body).toMatch(/^v1\./);
    for (const secretText of ['sk_', 'whsec_', 'eyJ', 'key_9']) expect(row.body).not.toContain(secretText);
    // the request is remembered by an HMAC under the server secret, not a plain hash of the body
    expect(row.request_hash).not.toBe(
      createHash('sha256')
        .update(JSON.stringify({ name: 'a' }))
        .digest('hex'),
    );
    expect(await store.reserve(id, body, later(1))).toEqual({ kind: 'replay', status: 201, body: answer, headers: {} });
    // a matching record whose answer cannot be opened (damaged, or sealed under another secret) is
    // dropped and the request runs as new: never a 500 on every retry for a day
    const foreign = new IdempotencyStore(
      await database.open(),
      new ServerSecret('another-server-secret-of-32-characters!!'),
    );
    expect(await foreign.reserve(id, body, later(2))).toEqual({ kind: 'new' });
    expect(await foreign.reserve(id, body, later(3))).toEqual({ kind: 'in_progress' });
  });

  it('records stored in clear by an older version are dropped at start; sealed and running ones stay', async () => {
    await store.reserve(id, body, T0);
    await store.complete(id, 201, { ok: true }, {});
    const running = IdempotencyStore.recordId('key_1', 'POST', '/v1/things', 'running');
    await store.reserve(running, body, T0);
    const legacy = IdempotencyStore.recordId('key_1', 'POST', '/v1/things', 'legacy');
    const source = await database.open();
    const p = (n: number) => (database.dialect === 'postgres' ? `$${n}` : '?');
    await source.query(
      `INSERT INTO idempotency_record (id, request_hash, status, body, headers, expires_at) VALUES (${p(1)}, ${p(2)}, 201, ${p(3)}, '{}', ${p(4)})`,
      [legacy, body, JSON.stringify({ key: 'sk_legacyvalue' }), later(DAY).toISOString()],
    );
    expect(await store.dropUnsealed()).toBe(1);
    expect(await storedRow(legacy)).toBeUndefined();
    expect((await store.reserve(id, body, later(1))).kind).toBe('replay');
    expect((await store.reserve(running, body, later(1))).kind).toBe('in_progress');
    expect(await store.dropUnsealed()).toBe(0);
  });
});
