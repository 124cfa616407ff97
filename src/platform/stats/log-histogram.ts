/**
 * A mergeable sketch of non-negative values for percentiles: counts in logarithmic buckets, each
 * 2% wider than the last, so any percentile it answers is within 1% of a value that was recorded
 * (DDSketch's idea, with a fixed γ and no collapsing: values here stay under a day in ms, ~930
 * buckets at most, and a bucket range holds a few dozen of them). Two sketches merge by adding
 * counts, so an hour's, a day's and a month's percentiles come from the same rows, and a rebuild
 * reproduces them exactly. Stored as JSON text: `{"<bucket>": count}`, only the buckets used.
 */
export type LogHistogram = Record<string, number>;

const GAMMA = 1.02;
const LOG_GAMMA = Math.log(GAMMA);

/** Values below 1 share bucket 0; bucket k ≥ 1 holds [γ^(k-1), γ^k). */
function bucketOf(value: number): number {
  if (!(value >= 1)) return 0;
  return 1 + Math.floor(Math.log(value) / LOG_GAMMA);
}

/** The value a bucket stands for: its geometric middle (0 for bucket 0). */
function valueOf(bucket: number): number {
  if (bucket <= 0) return 0;
  return Math.pow(GAMMA, bucket - 1) * Math.sqrt(GAMMA);
}

export function record(histogram: LogHistogram, value: number): void {
  if (!Number.isFinite(value) || value < 0) return;
  const key = String(bucketOf(value));
  histogram[key] = (histogram[key] ?? 0) + 1;
}

/** Adds `other`'s counts into `into`. */
export function merge(into: LogHistogram, other: LogHistogram): void {
  for (const key in other) into[key] = (into[key] ?? 0) + other[key];
}

export function countOf(histogram: LogHistogram): number {
  let n = 0;
  for (const key in histogram) n += histogram[key];
  return n;
}

/** The nearest-rank `p`-quantile (0 < p ≤ 1) as its bucket's value; null when nothing was recorded. */
export function quantile(histogram: LogHistogram, p: number): number | null {
  const buckets = Object.keys(histogram)
    .map(Number)
    .sort((a, b) => a - b);
  const n = countOf(histogram);
  if (n === 0) return null;
  const rank = Math.max(1, Math.ceil(p * n));
  let seen = 0;
  for (const bucket of buckets) {
    seen += histogram[String(bucket)];
    if (seen >= rank) return valueOf(bucket);
  }
  return valueOf(buckets[buckets.length - 1]);
}

/** A stored sketch; an unreadable one reads as empty rather than failing a whole series. */
export function parseHistogram(text: string | null | undefined): LogHistogram {
  if (!text) return {};
  try {
    const parsed = JSON.parse(text) as unknown;
    return parsed && typeof parsed === 'object' && !Array.isArray(parsed) ? (parsed as LogHistogram) : {};
  } catch {
    return {};
  }
}
