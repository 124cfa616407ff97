import { ALL_UPCASTERS } from '../app.upcasters';
import { ConversationSealing } from '../erasure/conversation-sealing';
import { openConversationKeyStore } from '../erasure/open-key-store';
import type { EventStore } from '../event-store/event-store.port';
import { openEventStore } from '../event-store/open-event-store';
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
