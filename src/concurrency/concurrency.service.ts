import { Injectable } from '@nestjs/common';
import {
  BUCKET_MS,
  concurrencyQueries,
  type ConcurrencyQueries,
  type SeriesQuery,
} from '../../projections/concurrency/queries';
import { accountRef, agentRef } from '../platform/ids/prefixed-ids';
import { ReadModels } from '../read-models/read-models.service';

const timeOf = (bucket: number) => new Date(bucket * BUCKET_MS).toISOString();

/** Concurrent conversations per 5-minute interval (contract §17), from the concurrency read model. */
@Injectable()
export class ConcurrencyService {
  private readonly queries: ConcurrencyQueries;

  constructor(readModels: ReadModels) {
    this.queries = concurrencyQueries(readModels);
  }

  async series(accountId: string, query: SeriesQuery) {
    const rows = await this.queries.series(query);
    let intervals: Array<Record<string, unknown>>;
    if (query.sliceBy) {
      intervals = rows.map((row) => ({
        time: timeOf(row.bucket),
        max_concurrent_conversations: row.conversations,
        ...row.slice,
      }));
    } else {
      // every interval of the range, 0 where nothing ran
      const counts = new Map(rows.map((row) => [row.bucket, row.conversations]));
      intervals = [];
      for (let bucket = query.fromBucket; bucket < query.toBucket; bucket++)
        intervals.push({ time: timeOf(bucket), max_concurrent_conversations: counts.get(bucket) ?? 0 });
    }
    return { account_id: accountRef(accountId), project_id: agentRef(query.agentId), intervals };
  }
}
