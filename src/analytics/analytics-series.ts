import type { BucketCounts, TopicCount, UnansweredInput } from '../../projections/analytics/queries';
import { merge, parseHistogram, quantile, type LogHistogram } from '../platform/stats/log-histogram';

/** One bucket, or the totals, as the Analytics API answers (contract §23). */
export interface AnalyticsFigures {
  conversations: number;
  contained: number;
  handoffs: number;
  abandoned: number;
  not_connected: number;
  turns: number;
  ood_turns: number;
  duration_s: { p50: number | null; p90: number | null };
  first_response_ms: { p50: number | null; p90: number | null };
}

interface Sum {
  counts: Omit<AnalyticsFigures, 'duration_s' | 'first_response_ms'>;
  duration: LogHistogram;
  firstResponse: LogHistogram;
}

const empty = (): Sum => ({
  counts: { conversations: 0, contained: 0, handoffs: 0, abandoned: 0, not_connected: 0, turns: 0, ood_turns: 0 },
  duration: {},
  firstResponse: {},
});

function add(sum: Sum, row: BucketCounts, duration: LogHistogram, firstResponse: LogHistogram): void {
  const c = sum.counts;
  c.conversations += row.conversations;
  c.contained += row.contained;
  c.handoffs += row.handoffs;
  c.abandoned += row.abandoned;
  c.not_connected += row.notConnected;
  c.turns += row.turns;
  c.ood_turns += row.oodTurns;
  merge(sum.duration, duration);
  merge(sum.firstResponse, firstResponse);
}

const round = (value: number | null, digits: number) =>
  value === null ? null : Math.round(value * 10 ** digits) / 10 ** digits;

function figures(sum: Sum): AnalyticsFigures {
  const seconds = (p: number) => {
    const ms = quantile(sum.duration, p);
    return ms === null ? null : round(ms / 1000, 2);
  };
  return {
    ...sum.counts,
    duration_s: { p50: seconds(0.5), p90: seconds(0.9) },
    first_response_ms: {
      p50: round(quantile(sum.firstResponse, 0.5), 0),
      p90: round(quantile(sum.firstResponse, 0.9), 0),
    },
  };
}

/**
 * Every bucket from the mark at or before `fromMs` to the last one starting before `toMs`, empty
 * ones included, with the rows (one per channel) of each summed, and the totals over all of them.
 */
export function series(rows: BucketCounts[], fromMs: number, toMs: number, bucketMs: number) {
  const first = Math.floor(fromMs / bucketMs) * bucketMs;
  const sums = new Map<number, Sum>();
  for (let t = first; t < toMs; t += bucketMs) sums.set(t, empty());
  const total = empty();
  for (const row of rows) {
    const sum = sums.get(row.startMs);
    if (!sum) continue;
    const duration = parseHistogram(row.durationMs);
    const firstResponse = parseHistogram(row.firstResponseMs);
    add(sum, row, duration, firstResponse);
    add(total, row, duration, firstResponse);
  }
  return {
    buckets: [...sums].map(([t, sum]) => ({ time: new Date(t).toISOString(), ...figures(sum) })),
    totals: figures(total),
  };
}

export const topicsView = (topics: TopicCount[]) => topics.map((t) => ({ topic: t.topic, turns: t.turns }));

export const unansweredView = (inputs: UnansweredInput[]) =>
  inputs.map((u) => ({ text: u.text, count: u.count, last_at: u.lastAt, conversation_id: u.conversationId }));
