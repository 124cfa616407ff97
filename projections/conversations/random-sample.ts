import type { ConversationSummary } from './conversation-view';

/** A matching conversation as a sample reads it: its id, and its summary as stored (JSON). */
export interface SampleRow {
  id: string;
  summary: string;
}

/**
 * The queries a sample needs over the conversations passing a listing's filters, answered by
 * each database through its listing index on (agent, environment, started_at, id).
 */
export interface SampleSource {
  /** How many conversations match, counting no further than `cap`. */
  count(cap: number): Promise<number>;
  /** At most `limit` of the matches, in a random order (costs every match: small sets only). */
  shuffled(limit: number): Promise<SampleRow[]>;
  /** started_at of the first and of the last match; null when nothing matches. */
  bounds(): Promise<{ first: string; last: string } | null>;
  /** For each instant, the first match (by started_at, id) at or after it; null past the last. */
  firstAtOrAfter(instants: string[]): Promise<Array<SampleRow | null>>;
  /** The first `count` matches (by started_at, id) at or after an instant, or from the first match. */
  walk(from: string | null, count: number): Promise<SampleRow[]>;
}

/** Probes a sample may spend, per conversation asked for. */
const PROBES_PER_ROW = 8;

/**
 * `limit` conversations drawn at random among the matches, or all of them when fewer match.
 * Up to `smallSet` matches the draw is exact: a random order of them all. Past it, sorting every
 * match would cost what the range holds, so the draw probes random instants between the first and
 * the last match, each taking the first match at or after it (one index seek). The pick leans
 * towards a conversation after a quiet gap, and of conversations that started in the same instant
 * reaches only the first (by id). When the probes keep landing on the same few, the sample is
 * filled with the matches that follow a random instant, wrapping to the first, so it always holds
 * min(limit, matches).
 */
export async function drawSample(
  source: SampleSource,
  limit: number,
  smallSet: number,
  random: () => number = Math.random,
): Promise<ConversationSummary[]> {
  if (limit <= 0) return [];
  if ((await source.count(smallSet + 1)) <= smallSet) return (await source.shuffled(limit)).map(parse);
  const bounds = await source.bounds();
  if (!bounds) return [];
  const from = Date.parse(bounds.first);
  const span = Math.max(0, Date.parse(bounds.last) - from);
  const instant = () => new Date(from + Math.floor(random() * (span + 1))).toISOString();
  const picked = new Map<string, ConversationSummary>();
  const take = (rows: Array<SampleRow | null>) => {
    for (const row of rows) if (row && picked.size < limit && !picked.has(row.id)) picked.set(row.id, parse(row));
  };
  // a round of probes per query: PostgreSQL answers a round in one round trip
  for (let attempts = limit * PROBES_PER_ROW; attempts > 0 && picked.size < limit;) {
    const round = Math.min(attempts, (limit - picked.size) * 2);
    attempts -= round;
    take(await source.firstAtOrAfter(Array.from({ length: round }, instant)));
  }
  // `limit` rows in a row hold at least limit - picked.size new ones, if the range has them
  if (picked.size < limit) take(await source.walk(instant(), limit));
  if (picked.size < limit) take(await source.walk(null, limit));
  return [...picked.values()];
}

function parse(row: SampleRow): ConversationSummary {
  return JSON.parse(row.summary) as ConversationSummary;
}
