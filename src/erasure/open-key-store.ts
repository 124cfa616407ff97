import type { ServerSecret } from '../platform/auth/server-secret';
import type { Config } from '../platform/config/config';
import { SqliteConversationKeyStore, type ConversationKeyStore } from './conversation-keys';
import { PostgresConversationKeyStore } from './postgres-conversation-keys';

type KeyStoreConfig = Pick<Config, 'dataDir' | 'databaseUrl' | 'eventStore' | 'eventStoreUrl'>;

/**
 * The key store the configuration implies: in PostgreSQL wherever processes share one (the
 * platform database, else the log's), so every process opens what any of them sealed; else a
 * SQLite file beside the log in DATA_DIR.
 */
export function openConversationKeyStore(config: KeyStoreConfig, secret: ServerSecret): Promise<ConversationKeyStore> {
  const shared = config.databaseUrl ?? (config.eventStore === 'postgres' ? config.eventStoreUrl : null);
  if (shared) return PostgresConversationKeyStore.open(shared, secret);
  return Promise.resolve(new SqliteConversationKeyStore(config.dataDir, secret));
}
