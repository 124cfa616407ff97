import type { Granularity } from './range';

/** A value of a series: `null` is no data (an empty bucket's percentile or rate), never zero. */
export type Value = number | null;

/** `part` as a percentage of `whole`; no conversations, no rate. */
export const rate = (part: number, whole: number): Value => (whole > 0 ? (part / whole) * 100 : null);

const grouped = new Intl.NumberFormat('en-US');
export const formatCount = (v: number) => grouped.format(v);
export const formatPercent = (v: number) => `${v.toFixed(1)} %`;
export const formatMs = (v: number) => `${grouped.format(Math.round(v))} ms`;
export const formatSeconds = (v: number) => `${v < 10 ? v.toFixed(1) : grouped.format(Math.round(v))} s`;
/** A figure as text; no data says so. */
export const show = (v: Value, format: (v: number) => string) => (v === null ? 'no data' : format(v));

/** A bucket's start in UTC, as the API cuts them: `2026-03-05` for a day, `03-05 14:00` for an hour. */
export function bucketLabel(time: string, granularity: Granularity): string {
  const at = new Date(time).toISOString();
  return granularity === 'day' ? at.slice(0, 10) : `${at.slice(5, 10)} ${at.slice(11, 16)}`;
}

/** The short form under a chart's axis: `03-05` or `14:00`. */
export const tickLabel = (time: string, granularity: Granularity) =>
  granularity === 'day' ? new Date(time).toISOString().slice(5, 10) : new Date(time).toISOString().slice(11, 16);

export interface Series {
  name: string;
  values: Value[];
}

/**
 * A sentence a screen reader hears for a chart: the range, and per series its extremes (or its
 * total) and how many buckets had no data.
 */
export function summarise(
  title: string,
  labels: string[],
  series: Series[],
  format: (v: number) => string,
  options: { total?: boolean; unit: string } = { unit: 'buckets' },
): string {
  if (labels.length === 0) return `${title}: no buckets.`;
  const parts = series.map((s) => {
    const known = s.values.map((v, i) => ({ v, i })).filter((p): p is { v: number; i: number } => p.v !== null);
    if (known.length === 0) return `${s.name}: no data`;
    const high = known.reduce((a, b) => (b.v > a.v ? b : a));
    const low = known.reduce((a, b) => (b.v < a.v ? b : a));
    const gaps = s.values.length - known.length;
    const total = options.total ? `${format(known.reduce((n, p) => n + p.v, 0))} in total, ` : '';
    const range =
      high.v === low.v
        ? `${format(high.v)} throughout`
        : `highest ${format(high.v)} (${labels[high.i]}), lowest ${format(low.v)} (${labels[low.i]})`;
    return `${s.name}: ${total}${range}${gaps ? `, no data in ${gaps} of ${s.values.length} ${options.unit}` : ''}`;
  });
  return `${title}, ${labels[0]} to ${labels[labels.length - 1]} (UTC). ${parts.join('; ')}.`;
}
