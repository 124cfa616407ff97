import path from 'node:path';
import { ALL_UPCASTERS } from '../app.upcasters';
import { SqliteConversationKeyStore } from '../erasure/conversation-keys';
import { ConversationSealing } from '../erasure/conversation-sealing';
import { openConversationKeyStore } from '../erasure/open-key-store';
import type { EventStore } from '../event-store/event-store.port';
import { openEventStore } from '../event-store/open-event-store';
import { SqliteEventStore } from '../event-store/sqlite/sqlite-event-store';
import { withUpcasting } from '../event-store/upcasting-event-store';
import { Upcasters } from '../event-store/upcasting';
import { ServerSecret } from '../platform/auth/server-secret';
import type { Config } from '../platform/config/config';

/**
 * The log as the app reads it, for a command-line tool: upcast, and opened with the conversations'
 * keys (erased ones read `[erased]`, as in the app). Closing it closes the key store too.
 */
export async function openSealedStore(config: Config): Promise<EventStore> {
  const keys = await openConversationKeyStore(
    config,
    ServerSecret.resolve(config.serverSecret ?? undefined, config.dataDir),
  );
  try {
    const store = await openEventStore(
      config,
      new Upcasters(ALL_UPCASTERS),
      undefined,
      undefined,
      new ConversationSealing(keys),
    );
    return {
      ...store,
      close: async () => {
        await store.close();
        await keys.close();
      },
    };
  } catch (error) {
    await keys.close();
    throw error;
  }
}

/**
 * `store` (a log the app wrote, opened raw) as the app reads it: upcast, and its conversations'
 * fields opened with the SQLite key store of `keysDir` (a seeded or copied DATA_DIR). For tools,
 * tests and the bench.
 */
export function openedWithKeysOf(store: EventStore, keysDir: string): EventStore {
  const keys = new SqliteConversationKeyStore(keysDir, ServerSecret.resolve(undefined, keysDir));
  const opened = withUpcasting(store, new Upcasters(ALL_UPCASTERS), new ConversationSealing(keys));
  return {
    ...opened,
    close: async () => {
      await opened.close();
      await keys.close();
    },
  };
}

/** The SQLite log under `dataDir`, opened as the app opens it (openedWithKeysOf, the same dir's keys). */
export async function openSealedSqliteLog(dataDir: string, sync: 'normal' | 'full' = 'normal'): Promise<EventStore> {
  return openedWithKeysOf(await SqliteEventStore.open({ file: path.join(dataDir, 'events.sqlite'), sync }), dataDir);
}
