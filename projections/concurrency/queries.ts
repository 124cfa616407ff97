import type { DataSource } from 'typeorm';
import { andThen, type Awaitable } from '../../src/platform/awaitable';
import { ReadQuery } from '../../src/read-models/read-query';
import type { ReadModelSources } from '../query-kit';

export { BUCKET_MS } from './concurrency.projection';
import { CONCURRENCY_READ_MODEL } from './name';

export { CONCURRENCY_READ_MODEL } from './name';

/** What a series may be sliced by, and the columns each slice reads. */
export const SLICES = {
  variant: ['variant_id', 'variant_name'],
  language: ['language'],
  phone_number: ['phone_number'],
  channel: ['channel'],
} as const;
export type SliceBy = keyof typeof SLICES;

export interface SeriesQuery {
  agentId: string;
  environment: string;
  /** interval indexes (epoch ms / BUCKET_MS), from inclusive, to exclusive */
  fromBucket: number;
  toBucket: number;
  variantId?: string;
  variantName?: string;
  language?: string;
  phoneNumber?: string;
  /** any of these channels; absent: every channel */
  channels?: string[];
  sliceBy?: SliceBy;
}

/** One interval (and slice value, when sliced) that had conversations. */
interface SeriesRow {
  bucket: number;
  conversations: number;
  /** the slice's columns, when sliced */
  slice: Record<string, string>;
}

export interface ConcurrencyQueries {
  /** Conversations in progress per interval, in ascending interval (then slice) order; empty intervals absent. */
  series(query: SeriesQuery): Awaitable<SeriesRow[]>;
}

class ConcurrencyReadModel implements ConcurrencyQueries {
  /** Prepared once per SQL text (the filters present change it) and serving generation. */
  private readonly queries = new Map<string, ReadQuery<Record<string, string | number>>>();

  constructor(private readonly source: () => DataSource) {}

  series(q: SeriesQuery) {
    const where = ['agent_id = ?', 'environment = ?', 'bucket >= ?', 'bucket < ?'];
    const params: unknown[] = [q.agentId, q.environment, q.fromBucket, q.toBucket];
    const equal = (column: string, value: string | undefined) => {
      if (value === undefined) return;
      where.push(`${column} = ?`);
      params.push(value);
    };
    equal('variant_id', q.variantId);
    equal('variant_name', q.variantName);
    equal('language', q.language);
    equal('phone_number', q.phoneNumber);
    if (q.channels?.length) {
      where.push(`channel IN (${q.channels.map(() => '?').join(', ')})`);
      params.push(...q.channels);
    }
    const columns: readonly string[] = q.sliceBy ? SLICES[q.sliceBy] : [];
    const group = ['bucket', ...columns].join(', ');
    // the sum cast to INTEGER: PostgreSQL sums integers as bigint, which pg returns as a string
    const sql =
      `SELECT ${group}, CAST(sum(conversations) AS INTEGER) AS n FROM concurrency_bucket ` +
      `WHERE ${where.join(' AND ')} GROUP BY ${group} HAVING sum(conversations) > 0 ORDER BY ${group}`;
    return andThen(this.query(sql).all(...params), ({ rows }) =>
      rows.map((row) => ({
        bucket: Number(row.bucket),
        conversations: Number(row.n),
        slice: Object.fromEntries(columns.map((c) => [c, String(row[c])])),
      })),
    );
  }

  private query(sql: string) {
    let query = this.queries.get(sql);
    if (!query) this.queries.set(sql, (query = new ReadQuery(this.source, sql)));
    return query;
  }
}

/** The concurrency read model's queries on whichever generation serves now. */
export function concurrencyQueries(readModels: ReadModelSources): ConcurrencyQueries {
  return new ConcurrencyReadModel(() => readModels.source(CONCURRENCY_READ_MODEL));
}
