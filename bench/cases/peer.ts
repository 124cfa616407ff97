import { streamOf, turnEvents, STREAMS } from '../fixtures/turn-event';
import type { BenchCase, Result } from '../lib/case';
import type { BenchContext } from '../lib/context';
import { perSecond, repeat, withDeadline } from '../lib/measure';
import { removeDb } from '../lib/paths';
import { loadPeer, type PeerEvent, type PeerEventStore, type PeerModule } from '../lib/peer-install';

/**
 * The peer: @event-driven-io/emmett-sqlite 0.38.5. It opens a connection per operation and runs
 * with sqlite3's default synchronous=FULL. It does not survive concurrent appends from one
 * process (errors, lost appends, hangs), so every append here is awaited before the next.
 */
const SERIAL = 'appends serialised (sequential awaits): the peer does not survive concurrent appends';
const READ_BATCH = 1000;
/**
 * Even serialised, an append now and then fails with SQLITE_BUSY "cannot commit transaction - SQL
 * statements in progress" (its sqlite3 connection is not serialised, so a statement can still be
 * open when COMMIT runs); the append is rolled back. The bench retries it like a caller would, a
 * bounded number of times, and reports how many attempts failed.
 */
const ATTEMPTS = 5;
/** Events per append while filling the log the read case reads: filling is not what is measured. */
const FILL_PER_APPEND = 20;

function peer(ctx: BenchContext): Promise<PeerModule | Error> {
  return ctx.shared('peer', async () => {
    const loaded = loadPeer(ctx.log);
    if (loaded instanceof Error) {
      const line = `!!! PEER UNAVAILABLE: ${loaded.message.split('\n')[0]} — its figures are recorded as null`;
      process.stderr.write(`\n${'!'.repeat(100)}\n${line}\n${'!'.repeat(100)}\n\n`);
    }
    return loaded;
  });
}

function unavailable(error: Error, unit: string): Result {
  return { figure: null, unit, note: `PEER UNAVAILABLE: ${error.message.split('\n')[0]}` };
}

/** The peer console.logs every failed transaction: keep that off stdout, where the table goes. */
async function quietly<T>(work: () => Promise<T>): Promise<T> {
  const log = console.log;
  console.log = (...args: unknown[]) =>
    console.error('  [peer]', ...args.map((a) => (a instanceof Error ? a.message : a)));
  try {
    return await work();
  } finally {
    console.log = log;
  }
}

async function appendWithRetry(
  store: PeerEventStore,
  stream: string,
  events: PeerEvent[],
  failures: { count: number },
): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    try {
      await store.appendToStream(stream, events);
      return;
    } catch (error) {
      failures.count++;
      if (attempt >= ATTEMPTS) throw error;
    }
  }
}

function toPeerEvents(count: number): PeerEvent[] {
  return turnEvents(count).map((e) => ({
    type: e.type,
    data: e.data as unknown as Record<string, unknown>,
    metadata: { ...e.metadata, eventId: e.id },
  }));
}

export const peerCases: BenchCase[] = [
  {
    name: 'peer.append.sequential',
    async run(ctx) {
      const emmett = await peer(ctx);
      if (emmett instanceof Error) return unavailable(emmett, 'events/s');
      const count = ctx.sizes.peerAppends;
      const events = toPeerEvents(count);
      const failures = { count: 0 };
      const r = await quietly(() =>
        repeat(ctx.sizes.runs, async () => {
          const file = ctx.file('peer-append.sqlite');
          const store = emmett.getSQLiteEventStore({ fileName: file });
          try {
            // Create its schema before timing: the first append would otherwise pay for it.
            await appendWithRetry(store, 'warmup-0', [{ type: 'Warmup', data: {} }], failures);
            return await perSecond(count, () =>
              withDeadline(
                (async () => {
                  for (let n = 0; n < count; n++) await appendWithRetry(store, streamOf(n), [events[n]], failures);
                })(),
                600_000,
                'peer appends',
              ),
            );
          } finally {
            removeDb(file);
          }
        }),
      );
      return {
        ...r,
        unit: 'events/s',
        note: `Emmett SQLite 0.38.5, ${count} one-event appends over ${STREAMS} streams, ${SERIAL}; ${failures.count} failed attempt(s) retried (SQLITE_BUSY)`,
        details: { failedAttemptsRetried: failures.count },
      };
    },
  },
  {
    name: 'peer.read.full-log',
    async run(ctx) {
      const emmett = await peer(ctx);
      if (emmett instanceof Error) return unavailable(emmett, 'events/s');
      const total = ctx.sizes.peerLog;
      const file = ctx.file('peer-log.sqlite');
      try {
        const store = emmett.getSQLiteEventStore({ fileName: file });
        const events = toPeerEvents(total);
        const failures = { count: 0 };
        // Fill FILL_PER_APPEND events per call, stream by stream, in sequence (see SERIAL).
        const byStream = Array.from({ length: STREAMS }, () => [] as PeerEvent[]);
        events.forEach((event, n) => byStream[n % STREAMS].push(event));
        for (let s = 0; s < STREAMS; s++) {
          const mine = byStream[s];
          for (let i = 0; i < mine.length; i += FILL_PER_APPEND) {
            await quietly(() => appendWithRetry(store, streamOf(s), mine.slice(i, i + FILL_PER_APPEND), failures));
          }
        }
        const r = await repeat(ctx.sizes.runs, async () => {
          const connection = emmett.sqliteConnection({ fileName: file });
          let read = 0;
          try {
            const rate = await perSecond(total, async () => {
              let batch = await emmett.readMessagesBatch(connection, { from: 0n, batchSize: READ_BATCH });
              read += batch.messages.length;
              // Bounded: one batch more than the log can fill.
              for (let page = 0; batch.areEventsLeft && page <= Math.ceil(total / READ_BATCH); page++) {
                batch = await emmett.readMessagesBatch(connection, {
                  after: batch.currentGlobalPosition,
                  batchSize: READ_BATCH,
                });
                read += batch.messages.length;
              }
            });
            if (read !== total) throw new Error(`peer read ${read} events of ${total}`);
            return rate;
          } finally {
            connection.close();
          }
        });
        return {
          ...r,
          unit: 'events/s',
          note: `Emmett readMessagesBatch, batches of ${READ_BATCH}, one connection, ${total} events`,
        };
      } finally {
        removeDb(file);
      }
    },
  },
];
