import type { DataSource } from 'typeorm';
import { andThen, type Awaitable } from '../../src/platform/awaitable';
import { ReadQuery } from '../../src/read-models/read-query';
import type { ReadModelSources } from '../query-kit';
import { DAY_MS } from './bucket-sizes';
import { ANALYTICS_READ_MODEL } from './name';

export { ANALYTICS_READ_MODEL } from './name';
export { DAY_MS, HOUR_MS } from './bucket-sizes';

/** Which rows a series reads: one project and environment, some channels (all when empty), a bucket size, [fromMs, toMs). */
export interface AnalyticsScope {
  projectId: string;
  environment: string;
  channels: string[];
  size: 'h' | 'd';
  fromMs: number;
  toMs: number;
}

export interface BucketCounts {
  startMs: number;
  conversations: number;
  contained: number;
  handoffs: number;
  abandoned: number;
  notConnected: number;
  turns: number;
  oodTurns: number;
  /** JSON sketches (src/platform/stats/log-histogram.ts) */
  durationMs: string;
  firstResponseMs: string;
}

export interface TopicCount {
  topic: string;
  turns: number;
}

export interface UnansweredInput {
  text: string;
  count: number;
  lastAt: string;
  conversationId: string;
}

export interface AnalyticsQueries {
  /** Every bucket row in range, one per channel that had conversations, oldest first. */
  buckets(scope: AnalyticsScope): Awaitable<BucketCounts[]>;
  topTopics(scope: AnalyticsScope, limit: number): Awaitable<TopicCount[]>;
  /** The most frequent unanswered inputs, latest first among equals; the conversation of the latest. */
  unanswered(scope: AnalyticsScope, limit: number): Awaitable<UnansweredInput[]>;
}

const RANGE = `project_id = ? AND environment = ? AND size = ? AND start_ms >= ? AND start_ms < ?`;

/**
 * The analytics read model's queries: ranges of one project's bucket rows, in the primary key's
 * order (project, environment, size, start). Prepared once per SQL text (a channel filter of n
 * channels is its own text) and serving generation.
 */
class AnalyticsReadModel implements AnalyticsQueries {
  private readonly queries = new Map<string, ReadQuery<Record<string, unknown>>>();

  constructor(private readonly source: () => DataSource) {}

  buckets(scope: AnalyticsScope) {
    const sql =
      `SELECT start_ms, conversations, contained, handoffs, abandoned, not_connected, turns, ood_turns, duration_ms, first_response_ms ` +
      `FROM analytics_bucket WHERE ${RANGE}${channelFilter(scope)} ORDER BY start_ms, channel`;
    return andThen(this.query(sql).all(...params(scope)), ({ rows }) =>
      rows.map((r): BucketCounts => ({
        startMs: Number(r.start_ms),
        conversations: Number(r.conversations),
        contained: Number(r.contained),
        handoffs: Number(r.handoffs),
        abandoned: Number(r.abandoned),
        notConnected: Number(r.not_connected),
        turns: Number(r.turns),
        oodTurns: Number(r.ood_turns),
        durationMs: String(r.duration_ms),
        firstResponseMs: String(r.first_response_ms),
      })),
    );
  }

  topTopics(scope: AnalyticsScope, limit: number) {
    const { where, values } = coverage(scope);
    const sql =
      `SELECT topic, CAST(sum(turns) AS INTEGER) AS turns FROM analytics_topic WHERE ${where} ` +
      `GROUP BY topic ORDER BY turns DESC, topic LIMIT ${Math.trunc(limit)}`;
    return andThen(this.query(sql).all(...values), ({ rows }) =>
      rows.map((r) => ({ topic: String(r.topic), turns: Number(r.turns) })),
    );
  }

  unanswered(scope: AnalyticsScope, limit: number) {
    const outer = coverage(scope, 'u.');
    const inner = coverage(scope);
    // the latest occurrence's conversation: one lookup per listed text, in the same range
    const sql =
      `SELECT g.text, g.n, g.last_at, (SELECT u.conversation_id FROM analytics_unanswered u ` +
      `WHERE ${outer.where} AND u.text = g.text ORDER BY u.last_at DESC LIMIT 1) AS conversation_id ` +
      `FROM (SELECT text, CAST(sum(count) AS INTEGER) AS n, max(last_at) AS last_at FROM analytics_unanswered WHERE ${inner.where} ` +
      `GROUP BY text ORDER BY n DESC, last_at DESC LIMIT ${Math.trunc(limit)}) g ORDER BY g.n DESC, g.last_at DESC`;
    return andThen(this.query(sql).all(...outer.values, ...inner.values), ({ rows }) =>
      rows.map((r) => ({
        text: String(r.text),
        count: Number(r.n),
        lastAt: String(r.last_at),
        conversationId: String(r.conversation_id),
      })),
    );
  }

  private query(sql: string): ReadQuery<Record<string, unknown>> {
    let query = this.queries.get(sql);
    if (!query) this.queries.set(sql, (query = new ReadQuery(this.source, sql)));
    return query;
  }
}

/**
 * The rows that cover a range for the lists (topics, unanswered inputs), whose buckets are summed
 * anyway: the days inside it as day rows, and hour rows only for the part-days at its ends. A
 * 7-day hourly range then reads about 9 rows per text and channel, not 168.
 */
function coverage(scope: AnalyticsScope, t = ''): { where: string; values: unknown[] } {
  const spans: Array<{ size: 'h' | 'd'; from: number; to: number }> = [];
  const firstDay = Math.ceil(scope.fromMs / DAY_MS) * DAY_MS;
  const lastDay = Math.floor(scope.toMs / DAY_MS) * DAY_MS;
  if (scope.size === 'd' || firstDay >= lastDay) spans.push({ size: scope.size, from: scope.fromMs, to: scope.toMs });
  else {
    if (scope.fromMs < firstDay) spans.push({ size: 'h', from: scope.fromMs, to: firstDay });
    spans.push({ size: 'd', from: firstDay, to: lastDay });
    if (lastDay < scope.toMs) spans.push({ size: 'h', from: lastDay, to: scope.toMs });
  }
  const where =
    `${t}project_id = ? AND ${t}environment = ? AND (` +
    spans.map(() => `(${t}size = ? AND ${t}start_ms >= ? AND ${t}start_ms < ?)`).join(' OR ') +
    `)${channelFilter(scope, t)}`;
  return {
    where,
    values: [scope.projectId, scope.environment, ...spans.flatMap((s) => [s.size, s.from, s.to]), ...scope.channels],
  };
}

const channelFilter = (scope: AnalyticsScope, t = '') =>
  scope.channels.length ? ` AND ${t}channel IN (${scope.channels.map(() => '?').join(', ')})` : '';

const params = (scope: AnalyticsScope) => [
  scope.projectId,
  scope.environment,
  scope.size,
  scope.fromMs,
  scope.toMs,
  ...scope.channels,
];

/** The analytics read model's queries on whichever generation serves now. */
export function analyticsQueries(readModels: ReadModelSources): AnalyticsQueries {
  return new AnalyticsReadModel(() => readModels.source(ANALYTICS_READ_MODEL));
}
