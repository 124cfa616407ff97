import { ENVIRONMENTS, type Environment } from '../api/types';

/**
 * What the dashboard and the account overview show: a range, an environment and channels, read
 * from and written to the page's query (`?range=30d&env=live&channel=SMS`), so a view can be
 * shared, and turned into the Analytics API's query (contract §23).
 */
export type Granularity = 'hour' | 'day';
export type RangeId = '24h' | '7d' | '30d' | '90d' | 'custom';
export const CHANNELS = ['CHAT', 'WEBCHAT', 'VOICE-SIP', 'SMS'] as const;
type Channel = (typeof CHANNELS)[number];

export const PRESETS: Array<{ id: RangeId; label: string }> = [
  { id: '24h', label: 'Last 24 hours, by hour' },
  { id: '7d', label: 'Last 7 days, by day' },
  { id: '30d', label: 'Last 30 days, by day' },
  { id: '90d', label: 'Last 90 days, by day' },
  { id: 'custom', label: 'Custom dates' },
];

export interface Selection {
  range: RangeId;
  /** custom ranges: UTC dates (YYYY-MM-DD), both days included */
  from: string;
  to: string;
  by: Granularity;
  env: Environment;
  /** none: every channel */
  channels: Channel[];
}

/** The API's query for a selection, or why it cannot be asked. */
export type Window =
  { start_time: string; end_time: string; granularity: Granularity; error?: undefined } | { error: string };

const HOUR = 3_600_000;
const DAY = 86_400_000;
/** the API's limits: 92 days by day, 7 by hour */
const MAX_DAYS: Record<Granularity, number> = { day: 92, hour: 7 };
const PRESET_DAYS: Record<string, number> = { '7d': 7, '30d': 30, '90d': 90 };

const utcDate = (ms: number) => new Date(ms).toISOString().slice(0, 10);
const iso = (ms: number) => new Date(ms).toISOString();

function defaultSelection(nowMs: number): Selection {
  return { range: '7d', from: utcDate(nowMs - 6 * DAY), to: utcDate(nowMs), by: 'day', env: 'live', channels: [] };
}

/**
 * Presets end with the current hour or UTC day, whole, so each has exactly 24, 7, 30 or 90
 * buckets, the last one still filling. Custom dates run from the first day's start to the last
 * day's end, in UTC as the API's day buckets are.
 */
export function windowOf(selection: Selection, nowMs: number): Window {
  if (selection.range === '24h') {
    const end = Math.floor(nowMs / HOUR) * HOUR + HOUR;
    return { start_time: iso(end - 24 * HOUR), end_time: iso(end), granularity: 'hour' };
  }
  const days = PRESET_DAYS[selection.range];
  if (days) {
    const end = Math.floor(nowMs / DAY) * DAY + DAY;
    return { start_time: iso(end - days * DAY), end_time: iso(end), granularity: 'day' };
  }
  const from = Date.parse(`${selection.from}T00:00:00Z`);
  const to = Date.parse(`${selection.to}T00:00:00Z`);
  if (Number.isNaN(from) || Number.isNaN(to)) return { error: 'Choose both dates.' };
  if (to < from) return { error: 'The last day comes before the first.' };
  const span = (to - from) / DAY + 1;
  const max = MAX_DAYS[selection.by];
  if (span > max) return { error: `At most ${max} days by ${selection.by} (${span} chosen).` };
  return { start_time: iso(from), end_time: iso(to + DAY), granularity: selection.by };
}

const oneOf = <T extends string>(value: string | null, allowed: readonly T[], fallback: T): T =>
  value !== null && (allowed as readonly string[]).includes(value) ? (value as T) : fallback;

/** The selection a query string names; anything missing or unknown takes the default. */
export function selectionFromQuery(query: URLSearchParams, nowMs: number): Selection {
  const fallback = defaultSelection(nowMs);
  const date = (value: string | null, or: string) => (value && /^\d{4}-\d{2}-\d{2}$/.test(value) ? value : or);
  return {
    range: oneOf(
      query.get('range'),
      PRESETS.map((p) => p.id),
      fallback.range,
    ),
    from: date(query.get('from'), fallback.from),
    to: date(query.get('to'), fallback.to),
    by: oneOf(query.get('by'), ['hour', 'day'] as const, 'day'),
    env: oneOf(query.get('env'), ENVIRONMENTS, 'live'),
    channels: query.getAll('channel').filter((c): c is Channel => (CHANNELS as readonly string[]).includes(c)),
  };
}

/** The query string of a selection (custom dates only for a custom range). */
export function queryOf(selection: Selection): string {
  const query = new URLSearchParams({ range: selection.range });
  if (selection.range === 'custom') {
    query.set('from', selection.from);
    query.set('to', selection.to);
    query.set('by', selection.by);
  }
  query.set('env', selection.env);
  for (const channel of selection.channels) query.append('channel', channel);
  return query.toString();
}
