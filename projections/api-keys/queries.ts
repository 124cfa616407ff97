import type { DataSource } from 'typeorm';
import type { Awaitable } from '../../src/platform/awaitable';
import { ReadQuery } from '../../src/read-models/read-query';
import type { Lookup, Plain, ReadModelSources } from '../query-kit';
import { ApiKeyRow } from './api-keys.entities';
import { API_KEYS_READ_MODEL } from './name';

export { API_KEYS_READ_MODEL } from './name';

export type ApiKey = Plain<ApiKeyRow>;

/** A key as authentication reads it (snake_case columns). */
export interface KeyLookupRow {
  id: string;
  account_id: string;
  name: string;
  agents: string;
  permissions: string;
  expires_at: string;
  key_digest: string;
  last4: string;
  deleted_at: string | null;
}

/** A live key as the desk checks it: JSON `agents` and `permissions`, as stored. */
interface LiveKeyRow {
  agents: string;
  permissions: string;
  expires_at: string;
}

/** The api-keys read model's queries. */
export interface ApiKeysQueries {
  /** The account's keys, deleted ones included, oldest first. */
  keysOf(accountId: string): Promise<ApiKey[]>;
  key(accountId: string, keyId: string): Promise<ApiKey | null>;
  /** Prepared (every request whose key is not cached yet): the key with this digest. */
  keyByDigest(digest: string): Lookup<KeyLookupRow>;
  /** Prepared (every handoff to the desk): the account's keys not deleted. */
  liveKeysOf(accountId: string): Awaitable<{ rows: LiveKeyRow[]; switched: boolean }>;
}

class ApiKeysReadModel implements ApiKeysQueries {
  private readonly byDigest: ReadQuery<KeyLookupRow>;
  private readonly live: ReadQuery<LiveKeyRow>;

  constructor(private readonly source: () => DataSource) {
    this.byDigest = new ReadQuery(source, 'SELECT * FROM api_key WHERE key_digest = ?');
    this.live = new ReadQuery(
      source,
      'SELECT agents, permissions, expires_at FROM api_key WHERE account_id = ? AND deleted_at IS NULL',
    );
  }

  keysOf(accountId: string) {
    return this.source()
      .getRepository(ApiKeyRow)
      .find({ where: { accountId }, order: { createdAt: 'ASC', id: 'ASC' } });
  }

  key(accountId: string, keyId: string) {
    return this.source().getRepository(ApiKeyRow).findOneBy({ id: keyId, accountId });
  }

  keyByDigest(digest: string) {
    return this.byDigest.get(digest);
  }

  liveKeysOf(accountId: string) {
    return this.live.all(accountId);
  }
}

/** The api-keys read model's queries on whichever generation serves now (one implementation for both databases). */
export function apiKeysQueries(readModels: ReadModelSources): ApiKeysQueries {
  return new ApiKeysReadModel(() => readModels.source(API_KEYS_READ_MODEL));
}
