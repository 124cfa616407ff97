import { randomUUID } from 'node:crypto';
import { describeOnPostgres } from '../../../test/support/postgres-server';
import { fromPortable, toPortable } from '../../read-models/apply/portable-events';
import { asRead, newTestEvent } from '../event-store.contract';
import type { RecordedEvent } from '../event-store.port';
import { START } from '../position';
import { LogReader } from './log-reader';
import { PostgresEventStore } from './postgres-event-store';
import { postgresRowOf } from './rows';

function databaseName(prefix: string): string {
  return `${prefix}_${randomUUID().replace(/-/g, '').slice(0, 16)}`;
}

describeOnPostgres('PostgresEventStore reads', (server) => {
  const open: PostgresEventStore[] = [];

  async function openStore(url: string): Promise<PostgresEventStore> {
    const store = await PostgresEventStore.open({ url });
    open.push(store);
    return store;
  }

  afterEach(async () => {
    jest.restoreAllMocks();
    for (const store of open.splice(0).reverse()) await store.close();
  });

  it('headPosition: the callers of one turn share one query, which sees what was committed before they asked', async () => {
    const url = await server().createDatabase(databaseName('head'));
    const store = await openStore(url);
    const other = await openStore(url);
    await store.append('head-a', [newTestEvent()], 'no_stream');
    const head = jest.spyOn(LogReader.prototype, 'head');
    // another process's commit, then twenty callers at once: none is answered from before it
    const written = await other.append('head-b', [newTestEvent()], 'no_stream');
    const heads = await Promise.all(Array.from({ length: 20 }, () => store.headPosition()));
    expect(new Set(heads)).toEqual(new Set([written.position]));
    expect(head).toHaveBeenCalledTimes(1);
    // a caller after those is answered by a query of its own, which sees the next commit
    const next = await other.append('head-b', [newTestEvent()], 'any');
    expect(await store.headPosition()).toBe(next.position);
    expect(head).toHaveBeenCalledTimes(2);
  });

  it('subscription events are parsed when first read and cross to a thread as their row', async () => {
    const url = await server().createDatabase(databaseName('lazy'));
    const store = await openStore(url);
    await store.append('lazy-a', [newTestEvent(), newTestEvent()], 'no_stream');
    const read = await store.readAll();
    const seen: RecordedEvent[] = [];
    const subscription = store.subscribeToAll({ after: START }, async (batch) => void seen.push(...batch));
    try {
      for (let i = 0; i < 200 && seen.length < 2; i++) await new Promise((resolve) => setTimeout(resolve, 10));
    } finally {
      await subscription.stop();
    }
    expect(seen.map((event) => postgresRowOf(event) !== undefined)).toEqual([true, true]);
    expect(asRead(seen)).toEqual(asRead(read));
    const crossed = seen.map((event) => fromPortable(structuredClone(toPortable(event))));
    expect(asRead(crossed)).toEqual(asRead(read));
  });
});
