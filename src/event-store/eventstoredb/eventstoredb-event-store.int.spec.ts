/**
 * The port's contract suite against a real EventStoreDB / KurrentDB server, whenever
 * EVENTSTORE_CONNECTION_STRING names one (e.g. kurrentdb://localhost:2113?tls=false). Every test
 * opens the store in a namespace of its own (a unique stream-name prefix, and `$all` filtered to
 * it from the log's end at that moment), so runs can share a server with each other and with
 * anything else on it. Without the variable it says loudly that it skipped; `npm test` stays
 * green with no server.
 */
import { randomUUID } from 'node:crypto';
import { describeEventStoreContract } from '../event-store.contract';
import { EventStoreDbEventStore } from './eventstoredb-event-store';

const connectionString = process.env.EVENTSTORE_CONNECTION_STRING;
const run = randomUUID().slice(0, 8);

if (connectionString) {
  const logger = { warn: (fields: object, message: string) => console.warn(message, fields), info: () => undefined };
  describeEventStoreContract(
    `EventStoreDbEventStore on ${connectionString.replace(/\/\/[^@/]*@/, '//***@')}`,
    async () => {
      const store = await EventStoreDbEventStore.open(connectionString, {
        logger,
        namespace: `parley-contract-${run}-${randomUUID().slice(0, 8)}-`,
      });
      return { store, cleanup: () => store.close() };
    },
  );
} else {
  console.warn(
    'SKIPPED: the EventStore contract suite against a real EventStoreDB did NOT run (EVENTSTORE_CONNECTION_STRING is not set). ' +
      'Only the fake-client runs in eventstoredb-event-store.spec.ts covered the adapter. ' +
      'Set EVENTSTORE_CONNECTION_STRING=kurrentdb://localhost:2113?tls=false to run it.',
  );
  describe.skip('SKIPPED: EventStoreDbEventStore contract against a real server (set EVENTSTORE_CONNECTION_STRING to run it)', () => {
    it('runs the EventStore port contract suite against EventStoreDB / KurrentDB', () => undefined);
  });
}
