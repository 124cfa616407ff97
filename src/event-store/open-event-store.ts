import path from 'node:path';
import type { Logger } from 'pino';
import type { Config } from '../platform/config/config';
import { createLogger } from '../platform/logging/logger';
import type { Metrics } from '../platform/metrics/metrics';
import type { EventStore } from './event-store.port';
import { lazyWakeEventsWithin } from './sqlite/append-waiters';
import { SqliteEventStore } from './sqlite/sqlite-event-store';
import type { EventSealing } from './sealing';
import type { Upcasters } from './upcasting';
import { withUpcasting } from './upcasting-event-store';

type StoreConfig = Pick<Config, 'dataDir' | 'eventStoreSync'> &
  Partial<
    Pick<
      Config,
      | 'eventStore'
      | 'eventStoreConnectionString'
      | 'eventStoreUrl'
      | 'eventStorePollMs'
      | 'logLevel'
      | 'logFormat'
      | 'readyMaxLagEvents'
    >
  >;

/**
 * The adapter the configuration names (EVENT_STORE), with `upcasters` applied to every read (the
 * app's UpcasterRegistry; a CLI or test passes `new Upcasters(ALL_UPCASTERS)`) and `sealing` to
 * every append and read (the app's SealingRegistry; a CLI passes the conversation sealing).
 */
export async function openEventStore(
  config: StoreConfig,
  upcasters: Pick<Upcasters, 'apply'>,
  metrics?: Metrics,
  logger?: Logger,
  sealing: EventSealing | null = null,
): Promise<EventStore> {
  const store =
    config.eventStore === 'eventstoredb'
      ? await openEventStoreDb(config, logger)
      : config.eventStore === 'postgres'
        ? await openPostgres(config, metrics)
        : await openSqlite(config, metrics);
  const upcast = withUpcasting(store, upcasters, sealing);
  return metrics ? withAppendTiming(upcast, metrics) : upcast;
}

async function openEventStoreDb(config: StoreConfig, logger?: Logger): Promise<EventStore> {
  if (!config.eventStoreConnectionString)
    throw new Error('EVENT_STORE=eventstoredb needs EVENTSTORE_CONNECTION_STRING');
  // Loaded only when chosen: the client brings gRPC and a native module the embedded setup never needs.
  const { EventStoreDbEventStore } = await import('./eventstoredb/eventstoredb-event-store');
  const log = (logger ?? createLogger(config.logLevel ?? 'info', config.logFormat)).child({ component: 'event-store' });
  return EventStoreDbEventStore.open(config.eventStoreConnectionString, { logger: log });
}

async function openPostgres(config: StoreConfig, metrics?: Metrics): Promise<EventStore> {
  if (!config.eventStoreUrl) throw new Error('EVENT_STORE=postgres needs EVENT_STORE_URL or DATABASE_URL');
  // Loaded only when chosen, like EventStoreDB's: the embedded setup never opens it.
  const { PostgresEventStore } = await import('./postgres/postgres-event-store');
  return PostgresEventStore.open({
    url: config.eventStoreUrl,
    pollIntervalMs: config.eventStorePollMs,
    onCommit: metrics ? (appends) => metrics.commitSize.observe(appends) : undefined,
  });
}

/** Times every append from call to durable acknowledgement. */
function withAppendTiming(store: EventStore, metrics: Metrics): EventStore {
  return {
    ...store,
    readStream: store.readStream.bind(store),
    readAll: store.readAll.bind(store),
    subscribeToAll: store.subscribeToAll.bind(store),
    headPosition: store.headPosition.bind(store),
    countAfter: store.countAfter.bind(store),
    close: store.close.bind(store),
    append: async (streamId, events, expected) => {
      // performance.now, not the histogram's startTimer: no closure and hrtime pair per append
      const started = performance.now();
      try {
        return await store.append(streamId, events, expected);
      } finally {
        metrics.appendDuration.observe((performance.now() - started) / 1000);
      }
    },
  };
}

function openSqlite(config: StoreConfig, metrics?: Metrics): Promise<SqliteEventStore> {
  return SqliteEventStore.open({
    file: path.join(config.dataDir, 'events.sqlite'),
    sync: config.eventStoreSync,
    pollIntervalMs: config.eventStorePollMs,
    onCommit: metrics ? (appends) => metrics.commitSize.observe(appends) : undefined,
    // a read model lazily behind on events it does not handle counts them as lag (/readyz)
    lazyWakeEvents: lazyWakeEventsWithin(config.readyMaxLagEvents),
  });
}
