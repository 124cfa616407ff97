import type { ExpectedRevision } from '../event-store.port';
import type { AppendOutcome, AppendRequest, SerializedEvent } from './batch-writer';

/**
 * How a batch of appends and its outcomes cross between the event loop and the writer thread.
 *
 * postMessage copies with the structured clone, whose cost is per object as much as per byte:
 * each append as an object with an array of event objects wrote every property name again. A
 * batch goes as one flat array of strings and its outcomes as numbers, which costs the event loop
 * less per append (bench/README.md, "Inline and thread writes"). Refusals are rare and keep their shape.
 */

/** A batch, flat: per append its stream, expected revision and event count, then per event id, type, data, metadata. */
export type WireBatch = Array<string | number>;

/** Per append: revision, global position and what it was (OK, REPEAT, or an index into `refusals`). */
export interface WireOutcomes {
  numbers: Float64Array;
  refusals: Array<Exclude<AppendOutcome, { ok: true }>>;
}

const STORED = -1;
const REPEAT = -2;
const KEYWORDS: ReadonlySet<string> = new Set(['any', 'no_stream', 'stream_exists']);

export function packBatch(batch: AppendRequest[]): WireBatch {
  const out: WireBatch = [];
  for (const { streamId, expected, events } of batch) {
    // a bigint does not survive as a number past 2^53: a revision goes as its decimal string
    out.push(streamId, typeof expected === 'bigint' ? expected.toString() : expected, events.length);
    for (const event of events) out.push(event.id, event.type, event.data, event.metadata);
  }
  return out;
}

export function unpackBatch(wire: WireBatch): AppendRequest[] {
  const batch: AppendRequest[] = [];
  let at = 0;
  while (at < wire.length) {
    const streamId = wire[at++] as string;
    const expectedText = wire[at++] as string;
    const count = wire[at++] as number;
    const expected = (KEYWORDS.has(expectedText) ? expectedText : BigInt(expectedText)) as ExpectedRevision;
    const events: SerializedEvent[] = [];
    for (let i = 0; i < count; i++, at += 4) {
      events.push({
        id: wire[at] as string,
        type: wire[at + 1] as string,
        data: wire[at + 2] as string,
        metadata: wire[at + 3] as string,
      });
    }
    batch.push({ streamId, expected, events });
  }
  return batch;
}

export function packOutcomes(outcomes: AppendOutcome[]): WireOutcomes {
  const numbers = new Float64Array(outcomes.length * 3);
  const refusals: WireOutcomes['refusals'] = [];
  outcomes.forEach((outcome, i) => {
    if (outcome.ok) {
      numbers[i * 3] = outcome.revision;
      numbers[i * 3 + 1] = outcome.globalPosition;
      numbers[i * 3 + 2] = outcome.repeat ? REPEAT : STORED;
    } else {
      numbers[i * 3 + 2] = refusals.length;
      refusals.push(outcome);
    }
  });
  return { numbers, refusals };
}

export function unpackOutcomes({ numbers, refusals }: WireOutcomes): AppendOutcome[] {
  const outcomes: AppendOutcome[] = [];
  for (let at = 0; at < numbers.length; at += 3) {
    const kind = numbers[at + 2];
    outcomes.push(
      kind < 0
        ? { ok: true, revision: numbers[at], globalPosition: numbers[at + 1], repeat: kind === REPEAT }
        : refusals[kind],
    );
  }
  return outcomes;
}
