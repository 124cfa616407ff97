import type { StreamRevision } from '../event-store.port';

export type AppendVerdict =
  /** None of the ids is in the stream: write them. */
  | { kind: 'fresh' }
  /** Every id is in the stream, consecutively and in this order: a retry of that append. */
  | { kind: 'retry'; lastRevision: StreamRevision }
  /** Some ids are stored and some not, or not as one append: a caller bug, never written. */
  | { kind: 'reused'; eventId: string };

/**
 * What an append is, given the ids already stored in its stream (id -> revision). The same rule
 * as the SQLite adapter, so both answer a retry alike: the first id decides whether this is a
 * retry, every later id must follow it, and a mismatch names an id that is stored.
 */
export function judgeAppend(ids: readonly string[], stored: ReadonlyMap<string, StreamRevision>): AppendVerdict {
  const seen = new Set<string>();
  let first: StreamRevision | undefined;
  let last: StreamRevision | undefined;
  for (let i = 0; i < ids.length; i++) {
    const id = ids[i];
    if (seen.has(id)) return { kind: 'reused', eventId: id };
    seen.add(id);
    const revision = stored.get(id);
    if (i === 0) first = revision;
    const consistent =
      first === undefined ? revision === undefined : revision !== undefined && revision === first + BigInt(i);
    if (!consistent) return { kind: 'reused', eventId: revision === undefined ? ids[0] : id };
    last = revision;
  }
  return last === undefined ? { kind: 'fresh' } : { kind: 'retry', lastRevision: last };
}
