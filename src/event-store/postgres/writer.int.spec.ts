import { randomUUID } from 'node:crypto';
import { Client } from 'pg';
import { patient } from '../../../test/support/patience';
import { describeOnPostgres } from '../../../test/support/postgres-server';
import { IdempotencyMismatchError, WrongExpectedRevisionError } from '../errors';
import { newTestEvent } from '../event-store.contract';
import { comparePositions } from '../position';
import { PostgresEventStore } from './postgres-event-store';

function databaseName(prefix: string): string {
  return `${prefix}_${randomUUID().replace(/-/g, '').slice(0, 16)}`;
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

async function until(condition: () => Promise<boolean>, what: string, timeoutMs = patient(5_000)): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await sleep(5);
  }
}

describeOnPostgres('PostgresEventStore writer', (server) => {
  const open: Array<PostgresEventStore | Client> = [];

  async function openStore(url: string): Promise<PostgresEventStore> {
    const store = await PostgresEventStore.open({ url });
    open.push(store);
    return store;
  }

  async function connect(url: string): Promise<Client> {
    const client = new Client({ connectionString: url });
    await client.connect();
    open.push(client);
    return client;
  }

  afterEach(async () => {
    for (const resource of open.splice(0).reverse()) {
      if (resource instanceof PostgresEventStore) await resource.close();
      else await resource.end();
    }
  });

  it('group commit: concurrent appends to different streams share transactions', async () => {
    const url = await server().createDatabase(databaseName('group'));
    const store = await openStore(url);
    const N = 40;
    const before = store.commitStats.commits;
    const results = await Promise.all(
      Array.from({ length: N }, (_, i) => store.append(`group-${i}`, [newTestEvent()], 'no_stream')),
    );
    const commits = store.commitStats.commits - before;

    // The stored rows say the same as the store's count: the xid8 each was written in.
    const client = await connect(url);
    const { rows } = await client.query<{ transactions: string; events: string }>(
      'SELECT count(DISTINCT transaction_id)::text AS transactions, count(*)::text AS events FROM parley_events',
    );
    const transactions = Number(rows[0].transactions);
    expect(Number(rows[0].events)).toBe(N);
    expect(transactions).toBe(commits);
    expect(transactions).toBeLessThan(N);
    expect(new Set(results.map((result) => result.position)).size).toBe(N);
    console.info(`group commit: ${N} concurrent appends in ${transactions} transaction(s)`);
  });

  it('one group, decided set-wise: refusals fail their append alone, positions follow the group order', async () => {
    const url = await server().createDatabase(databaseName('mixed'));
    const store = await openStore(url);
    await store.append('mixed-b', [newTestEvent()], 'no_stream');
    const before = store.commitStats.commits;
    const [a, b, c] = await Promise.allSettled([
      store.append('mixed-a', [newTestEvent('A')], 'no_stream'),
      store.append('mixed-b', [newTestEvent('B')], 5n),
      store.append('mixed-c', [newTestEvent('C1'), newTestEvent('C2')], 'any'),
    ]);
    expect(store.commitStats.commits - before).toBe(1);
    expect(b.status === 'rejected' && b.reason).toBeInstanceOf(WrongExpectedRevisionError);
    if (a.status !== 'fulfilled' || c.status !== 'fulfilled') throw new Error('the accepted appends failed');
    expect(a.value.nextExpectedRevision).toBe(0n);
    expect(c.value.nextExpectedRevision).toBe(1n);
    const log = (await store.readAll()).filter((event) => event.type !== 'TestEvent');
    expect(log.map((event) => event.type)).toEqual(['A', 'C1', 'C2']);
    expect(a.value.position).toBe(log[0].position);
    expect(c.value.position).toBe(log[2].position);
    expect((await store.readStream('mixed-c')).map((event) => event.revision)).toEqual([0n, 1n]);
  });

  it('one group holding a retry whose expected revision has passed: the retry is answered as stored', async () => {
    const url = await server().createDatabase(databaseName('retry'));
    const store = await openStore(url);
    const first = newTestEvent('First');
    const stored = await store.append('retry-a', [first], 'no_stream');
    await store.append('retry-a', [newTestEvent('Later')], 0n);
    const [retry, fresh] = await Promise.all([
      store.append('retry-a', [first], 'no_stream'),
      store.append('retry-b', [newTestEvent('Fresh')], 'no_stream'),
    ]);
    expect(retry).toEqual(stored);
    expect(fresh.nextExpectedRevision).toBe(0n);
    expect((await store.readAll()).map((event) => event.type)).toEqual(['First', 'Later', 'Fresh']);
  });

  it('one group with an id in two appends: the first stores it, the second is refused', async () => {
    const url = await server().createDatabase(databaseName('shared'));
    const store = await openStore(url);
    const shared = newTestEvent('Shared');
    const [first, second, other] = await Promise.allSettled([
      store.append('shared-a', [shared], 'any'),
      store.append('shared-b', [shared], 'any'),
      store.append('shared-c', [newTestEvent('Other')], 'any'),
    ]);
    expect(first.status).toBe('fulfilled');
    expect(second.status === 'rejected' && second.reason).toBeInstanceOf(IdempotencyMismatchError);
    expect(other.status).toBe('fulfilled');
    expect((await store.readAll()).map((event) => event.streamId)).toEqual(['shared-a', 'shared-c']);
  });

  it("keeps stream order equal to log order when an older transaction appends after a newer one's commit", async () => {
    const url = await server().createDatabase(databaseName('order'));
    const store = await openStore(url);
    const other = await openStore(url); // another process
    const blocked = `blocked-${randomUUID().slice(0, 8)}`;
    const contested = `contested-${randomUUID().slice(0, 8)}`;
    await store.append(blocked, [newTestEvent()], 'no_stream');

    // Another session holds revision 1 of `blocked`, uncommitted.
    const holder = await connect(url);
    await holder.query('BEGIN');
    await holder.query(
      `INSERT INTO parley_events (stream_id, revision, event_id, type, data, metadata)
       VALUES ($1, 1, $2, 'Holder', '{}', '{}')`,
      [blocked, randomUUID()],
    );

    // One group: the append to `blocked` takes the transaction's xid8 and waits for the holder.
    const first = store.append(blocked, [newTestEvent('First')], 'any');
    const second = store.append(contested, [newTestEvent('Second')], 'any');
    const watcher = await connect(url);
    await until(async () => {
      const { rows } = await watcher.query(
        `SELECT 1 FROM pg_stat_activity WHERE application_name = 'parley:event-store-writer' AND wait_event_type = 'Lock'`,
      );
      return rows.length > 0;
    }, 'the writer to wait for the holder');

    // Meanwhile a newer transaction appends to `contested` and commits; then the holder gives up.
    const newer = await other.append(contested, [newTestEvent('Newer')], 'no_stream');
    await holder.query('ROLLBACK');
    const [firstResult, secondResult] = await Promise.all([first, second]);

    // The waiting transaction would have put `Second` (revision 1) before `Newer` (revision 0) in
    // the log: it ran again, in a transaction newer than `Newer`'s.
    expect(secondResult.nextExpectedRevision).toBe(1n);
    expect(comparePositions(newer.position, secondResult.position)).toBe(-1);
    const stream = await store.readStream(contested);
    expect(stream.map((event) => event.type)).toEqual(['Newer', 'Second']);
    expect(comparePositions(stream[0].position, stream[1].position)).toBe(-1);
    expect(firstResult.nextExpectedRevision).toBe(1n);
    const log = await store.readAll();
    expect(log.map((event) => event.type).filter((type) => type !== 'TestEvent')).toEqual(['Newer', 'First', 'Second']);
    expect(store.commitStats.retries).toBeGreaterThanOrEqual(1);
  });

  it('refuses to open a log whose transaction ids this server has not reached (a logical restore)', async () => {
    const url = await server().createDatabase(databaseName('restored'));
    await (await openStore(url)).close();
    const client = await connect(url);
    await client.query(
      `INSERT INTO parley_events (transaction_id, stream_id, revision, event_id, type, data, metadata)
       VALUES ('4000000000'::xid8, 'restored', 0, 'restored-0', 'Restored', '{}', '{}')`,
    );
    await expect(PostgresEventStore.open({ url })).rejects.toThrow(
      /transaction ids this PostgreSQL server has not reached/,
    );
  });
});
