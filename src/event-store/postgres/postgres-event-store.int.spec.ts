import { randomUUID } from 'node:crypto';
import { describeOnPostgres } from '../../../test/support/postgres-server';
import { describeEventStoreContract } from '../event-store.contract';
import { PostgresEventStore } from './postgres-event-store';

/** A database name of its own for every test: the contract wants a fresh, empty store each time. */
function freshDatabaseName(prefix: string): string {
  return `${prefix}_${randomUUID().replace(/-/g, '').slice(0, 16)}`;
}

describeOnPostgres('PostgresEventStore on a throwaway PostgreSQL', (server) => {
  describeEventStoreContract('PostgresEventStore', async () => {
    const url = await server().createDatabase(freshDatabaseName('contract'));
    const store = await PostgresEventStore.open({ url, pollIntervalMs: 100 });
    return { store, cleanup: () => store.close() };
  });
});
