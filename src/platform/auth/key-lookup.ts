import type { Awaitable } from '../awaitable';
import type { KeyRecord } from './key-principal';

/**
 * Where the key guard finds keys: the platform asks, accounts answers from its api-keys read model
 * (src/accounts/read-model-key-lookup.ts), so the platform knows no read model.
 */
export interface KeyLookup {
  /**
   * The key stored under this digest, deleted or not. `switched`: the answer came from a rebuilt
   * read model that just took over, so whatever was remembered from the old one is stale.
   * At once on SQLite; a promise on PostgreSQL.
   */
  byDigest(digest: string): Awaitable<{ key: KeyRecord | undefined; switched: boolean }>;
  /** Calls `listener` whenever a key is created, renamed or deleted, before that write's answer. */
  onKeysChanged(listener: () => void): void;
}

export const KEY_LOOKUP = Symbol('KeyLookup');
