import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { WrongExpectedRevisionError } from '../event-store/errors';
import type { EventStore, NewEvent } from '../event-store/event-store.port';
import { SqliteEventStore } from '../event-store/sqlite/sqlite-event-store';
import { uuidv7 } from '../platform/ids/ids';
import type { ExternalEventDelivered } from './external-event.events';
import { MAX_RACES, recordDelivery } from './record-delivery';

const STREAM = 'external-event-agent-pay-1';

function delivery(bodySha256: string): NewEvent<ExternalEventDelivered> {
  const data: ExternalEventDelivered = {
    eventId: 'pay-1',
    accountId: 'acc',
    agentId: 'agent',
    conversationId: 'conv',
    name: 'payment',
    contentType: 'application/json',
    body: Buffer.from('{}').toString('base64'),
    bodySha256,
    deliveredAt: '2026-11-27T00:00:00.000Z',
  };
  return {
    id: uuidv7(),
    type: 'ExternalEventDelivered',
    data,
    metadata: { schemaVersion: 1, actor: 'test', correlationId: 'c', causationId: null, occurredAt: data.deliveredAt },
  };
}

/** A real store where another delivery of the same id lands just before each of ours, `times` times. */
function racedBy(store: EventStore, times: number): EventStore & { appends: number } {
  let left = times;
  const raced = Object.create(store) as EventStore & { appends: number };
  raced.appends = 0;
  raced.append = async (stream, events, expected) => {
    raced.appends++;
    if (left-- > 0) await store.append(stream, [delivery(`other-${left}`)], 'any');
    return store.append(stream, events, expected);
  };
  raced.readStream = (stream, options) => store.readStream(stream, options);
  return raced;
}

describe('recordDelivery: one recorded delivery per id and body, on a real SQLite log', () => {
  let dir: string;
  let store: SqliteEventStore;
  const bodies = async () => (await store.readStream(STREAM)).map((e) => (e.data as ExternalEventDelivered).bodySha256);

  beforeEach(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'parley-deliveries-'));
    store = await SqliteEventStore.open({ file: path.join(dir, 'events.sqlite'), sync: 'normal' });
  });

  afterEach(async () => {
    await store.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('records a body once however often it comes, and each other body after it', async () => {
    await recordDelivery(store, STREAM, delivery('a'));
    await recordDelivery(store, STREAM, delivery('a'));
    await recordDelivery(store, STREAM, delivery('b'));
    await recordDelivery(store, STREAM, delivery('a'));
    expect(await bodies()).toEqual(['a', 'b']);
  });

  it('records one of several identical deliveries racing each other', async () => {
    await Promise.all(Array.from({ length: 6 }, () => recordDelivery(store, STREAM, delivery('same'))));
    expect(await bodies()).toEqual(['same']);
  });

  it('records a delivery that lost races to other bodies after them', async () => {
    const raced = racedBy(store, 3);
    await recordDelivery(raced, STREAM, delivery('mine'));
    expect(await bodies()).toEqual(['other-2', 'other-1', 'other-0', 'mine']);
    expect(raced.appends).toBe(4);
  });

  it('gives up after MAX_RACES lost races: the sender is answered 409 and retries', async () => {
    const raced = racedBy(store, MAX_RACES + 5);
    await expect(recordDelivery(raced, STREAM, delivery('mine'))).rejects.toBeInstanceOf(WrongExpectedRevisionError);
    expect(raced.appends).toBe(MAX_RACES + 1);
    expect(await bodies()).not.toContain('mine');
  });
});
