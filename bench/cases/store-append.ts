import type { Series } from '../lib/alternate';
import type { BenchCase } from '../lib/case';
import { batchedAppends, sideOf, singleAppends } from './pairs';

/** SqliteEventStore appends, one event per append, sync=full (workloads/store-append.ts). */
function perCommit(series: Series | undefined): number[] {
  return (series?.details ?? []).map((d) => Number(d?.appendsPerCommit));
}

export const storeAppendCases: BenchCase[] = [
  {
    name: 'store.append.64-in-flight.full',
    async run(ctx) {
      const series = (await batchedAppends(ctx)).store;
      const batches = perCommit(series);
      return {
        ...sideOf(series, this.name),
        unit: 'events/s',
        note: `SqliteEventStore sync=full, ${ctx.sizes.storeInFlight} one-event appends over 1000 streams, 64 in flight; ~${batches[0]} appends/commit`,
        details: { appendsPerCommit: batches },
      };
    },
  },
  {
    name: 'store.append.1-awaiting.full',
    async run(ctx) {
      const series = (await singleAppends(ctx)).store;
      return {
        ...sideOf(series, this.name),
        unit: 'events/s',
        note: `SqliteEventStore sync=full, ${ctx.sizes.storeSingle} one-event appends over 1000 streams, one writer awaiting each`,
        details: { appendsPerCommit: perCommit(series) },
      };
    },
  },
];
