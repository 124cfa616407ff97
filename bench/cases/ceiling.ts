import type { BenchCase } from '../lib/case';
import { batchedAppends, fullLogReads, sideOf, singleAppends } from './pairs';

/**
 * Raw better-sqlite3 references the store is judged against (workloads/raw-append.ts,
 * full-log-read.ts). Their table is made by the store's own migrate(): same columns, same indexes.
 */
export const ceilingCases: BenchCase[] = [
  {
    name: 'ceiling.append.100-per-tx.full',
    async run(ctx) {
      const r = sideOf((await batchedAppends(ctx)).ceiling, this.name);
      return {
        ...r,
        unit: 'events/s',
        note: `raw better-sqlite3, same table, ${ctx.sizes.ceilingBatched} rows, 100 per tx, WAL, synchronous=FULL`,
      };
    },
  },
  {
    name: 'ceiling.append.1-per-tx.full',
    async run(ctx) {
      const r = sideOf((await singleAppends(ctx)).ceiling, this.name);
      return {
        ...r,
        unit: 'events/s',
        note: `raw better-sqlite3, same table, ${ctx.sizes.ceilingSingle} rows, 1 per tx, WAL, synchronous=FULL`,
      };
    },
  },
  {
    name: 'ceiling.scan.full-log',
    async run(ctx) {
      const r = sideOf((await fullLogReads(ctx)).ceiling, this.name);
      return {
        ...r,
        unit: 'events/s',
        note: `raw SELECT * ORDER BY global_position (iterate) + JSON.parse of data and metadata, ${ctx.sizes.logEvents} events`,
      };
    },
  },
];
