import { WrongExpectedRevisionError } from '../event-store/errors';
import type { EventStore, ExpectedRevision, NewEvent } from '../event-store/event-store.port';
import type { ExternalEventDelivered } from './external-event.events';

/** Appends of one delivery that may lose a race with others of the same id; then the sender gets 409 and retries. */
export const MAX_RACES = 8;

/**
 * Appends a delivery to its id's stream once per body: a repeat of a body already recorded (a
 * sender's retry, two deliveries racing, a retry of an append that committed before a crash)
 * appends nothing. Each append expects the stream as it was last read, so the store sees a race
 * and its loser compares bodies (`bodySha256`).
 *
 * The event's id is the caller's, time-ordered: a random one (a digest of the delivery, which made
 * the store itself recognise repeats) put every delivery's insert at a random place in the log's
 * event-id index, and the writer thread's CPU per append doubled (bench/README.md, "Where the
 * throughput stands").
 */
export async function recordDelivery(
  store: EventStore,
  stream: string,
  event: NewEvent<ExternalEventDelivered>,
): Promise<void> {
  let expected: ExpectedRevision = 'no_stream';
  for (let race = 0; ; race++) {
    try {
      await store.append(stream, [event], expected);
      return;
    } catch (error) {
      if (!(error instanceof WrongExpectedRevisionError) || race >= MAX_RACES) throw error;
    }
    const recorded = await store.readStream(stream);
    if (recorded.some((e) => (e.data as Partial<ExternalEventDelivered>).bodySha256 === event.data.bodySha256)) return;
    expected = recorded.length === 0 ? 'no_stream' : recorded[recorded.length - 1].revision;
  }
}
