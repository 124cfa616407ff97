/**
 * The adapter against FakeKurrentClient, an in-memory stand-in for the server: EventStoreDB
 * cannot run on this machine. This runs the port's whole contract suite through the adapter's
 * own code (mapping, idempotency, paging, subscriptions over a client-like stream); what the fake
 * assumes about the server is proven only by eventstoredb-event-store.int.spec.ts on a real one.
 */
import { randomUUID } from 'node:crypto';
import { describeEventStoreContract, newTestEvent } from '../event-store.contract';
import { IdempotencyMismatchError, WrongExpectedRevisionError } from '../errors';
import type { RecordedEvent } from '../event-store.port';
import { START } from '../position';
import { EventStoreDbEventStore, endOfLog } from './eventstoredb-event-store';
import { FakeKurrentClient, FakeServerState } from './fake-kurrent-client';

function quietLogger() {
  const warnings: Array<Record<string, unknown>> = [];
  return {
    warnings,
    warn: (fields: object) => warnings.push(fields as Record<string, unknown>),
    info: () => undefined,
  };
}

describeEventStoreContract('EventStoreDbEventStore on a fake client (contract without a server)', async () => {
  const store = new EventStoreDbEventStore(new FakeKurrentClient(), { logger: quietLogger() });
  return { store, cleanup: () => store.close() };
});

// As the real run does on a shared server: one server for every test, a namespace per test.
const shared = new FakeServerState();
describeEventStoreContract('EventStoreDbEventStore on a shared fake server, one namespace per test', async () => {
  const client = new FakeKurrentClient(shared);
  const store = new EventStoreDbEventStore(client, {
    logger: quietLogger(),
    namespace: `contract-${randomUUID().slice(0, 8)}-`,
    floor: await endOfLog(client),
  });
  return { store, cleanup: () => store.close() };
});
describeEventStoreContract(
  'EventStoreDbEventStore on a shared fake server, one namespace per test, no floor',
  async () => {
    const store = new EventStoreDbEventStore(new FakeKurrentClient(shared), {
      logger: quietLogger(),
      namespace: `contract-${randomUUID().slice(0, 8)}-`,
    });
    return { store, cleanup: () => store.close() };
  },
);

describe('EventStoreDbEventStore specifics (fake client)', () => {
  const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
  async function waitUntil(condition: () => boolean, what: string): Promise<void> {
    const deadline = Date.now() + 5000;
    while (!condition()) {
      if (Date.now() > deadline) throw new Error(`timed out waiting for: ${what}`);
      await sleep(2);
    }
  }

  it('countAfter counts a small lag exactly and answers null past its window (the server cannot count cheaply)', async () => {
    const store = new EventStoreDbEventStore(new FakeKurrentClient(), { logger: quietLogger() });
    expect(await store.countAfter(START)).toBe(0);
    const first = await store.append('count', [newTestEvent()], 'no_stream');
    await store.append(
      'count',
      Array.from({ length: 98 }, () => newTestEvent()),
      0n,
    );
    expect(await store.countAfter(START)).toBe(99);
    expect(await store.countAfter(first.position)).toBe(98);
    expect(await store.countAfter(await store.headPosition())).toBe(0);
    await store.append('count', [newTestEvent()], 'any');
    expect(await store.countAfter(START)).toBeNull();
    expect(await store.countAfter(first.position)).toBe(99);
    await store.close();
  });

  it('a subscription survives a drop of the connection: resubscribes after the last delivered event', async () => {
    const client = new FakeKurrentClient();
    const logger = quietLogger();
    const store = new EventStoreDbEventStore(client, { logger, backoff: { initialMs: 1, maxMs: 5, factor: 2 } });
    for (let i = 0; i < 5; i++) await store.append('drop', [newTestEvent()], 'any');
    const seen: RecordedEvent[] = [];
    const subscription = store.subscribeToAll({ maxBatchSize: 2 }, (batch) => {
      seen.push(...batch);
    });
    await waitUntil(() => seen.length === 5, 'the first events');
    client.dropSubscriptions();
    for (let i = 0; i < 4; i++) await store.append('drop', [newTestEvent()], 'any');
    await waitUntil(() => seen.length === 9, 'the events after the drop');
    await sleep(20);
    expect(seen.map((e) => e.id)).toEqual((await store.readAll()).map((e) => e.id));
    expect(client.subscribeCalls).toBe(2);
    expect(logger.warnings).toHaveLength(1);
    expect(logger.warnings[0].after).toBe(seen[4].position);
    await subscription.stop();
    await store.close();
  });

  it('close() stops the subscriptions and disposes the client', async () => {
    const client = new FakeKurrentClient();
    const store = new EventStoreDbEventStore(client, { logger: quietLogger() });
    const subscription = store.subscribeToAll({}, () => undefined);
    await waitUntil(() => client.openSubscriptions === 1, 'the subscription');
    await store.close();
    await subscription.done;
    expect(client.openSubscriptions).toBe(0);
    await expect(store.readAll()).rejects.toMatchObject({ code: 'EVENT_STORE_CLOSED' });
  });

  it('close() lets the appends already accepted finish, then refuses new ones', async () => {
    const store = new EventStoreDbEventStore(new FakeKurrentClient(), { logger: quietLogger() });
    const accepted = store.append('closing', [newTestEvent(), newTestEvent()], 'no_stream');
    await store.close();
    await expect(accepted).resolves.toMatchObject({ nextExpectedRevision: 1n });
    await expect(store.append('closing', [newTestEvent()], 'any')).rejects.toMatchObject({
      code: 'EVENT_STORE_CLOSED',
    });
  });

  describe('idempotency across processes (a store that has not seen the stream)', () => {
    let server: FakeServerState;
    let first: EventStoreDbEventStore;
    let second: EventStoreDbEventStore;
    beforeEach(() => {
      server = new FakeServerState();
      first = new EventStoreDbEventStore(new FakeKurrentClient(server), { logger: quietLogger() });
      second = new EventStoreDbEventStore(new FakeKurrentClient(server), { logger: quietLogger() });
    });
    afterEach(async () => {
      await first.close();
      await second.close();
    });

    it('a retry answers the original result with no_stream, an exact revision, stream_exists and any', async () => {
      const batch = [newTestEvent(), newTestEvent()];
      const original = await first.append('orders-1', batch, 'no_stream');
      await first.append('orders-1', [newTestEvent()], 'any');
      for (const expected of ['no_stream', 'stream_exists', 'any'] as const) {
        expect(await second.append('orders-1', batch, expected)).toEqual(original);
      }
      const third = new EventStoreDbEventStore(new FakeKurrentClient(server), { logger: quietLogger() });
      expect(await third.append('orders-1', batch, 5n)).toEqual(original);
      await third.close();
      expect(await first.readStream('orders-1')).toHaveLength(3);
    });

    it('a reused id is refused even at the right revision, where the server would store it again', async () => {
      const stored = newTestEvent();
      await first.append('orders-2', [stored], 'no_stream');
      const error = await second.append('orders-2', [newTestEvent(), stored], 0n).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(IdempotencyMismatchError);
      expect((error as IdempotencyMismatchError).eventId).toBe(stored.id);
      expect(await first.readStream('orders-2')).toHaveLength(1);
    });

    it('a conflict after another process wrote reports the revision that process left', async () => {
      await first.append('orders-3', [newTestEvent()], 'no_stream');
      await second.append('orders-3', [newTestEvent()], 0n);
      // `first` knows the stream only up to revision 0 and tries there: the server refuses.
      const error = await first.append('orders-3', [newTestEvent()], 0n).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(WrongExpectedRevisionError);
      expect(error).toMatchObject({ expected: 0n, actual: 1n });
    });
  });
});
