import { Injectable } from '@nestjs/common';
import {
  apiKeysQueries,
  type ApiKeysQueries,
  type KeyLookupRow,
  API_KEYS_READ_MODEL,
} from '../../projections/api-keys/queries';
import { andThen, type Awaitable } from '../platform/awaitable';
import type { KeyLookup } from '../platform/auth/key-lookup';
import type { KeyRecord } from '../platform/auth/key-principal';
import type { Permission } from '../platform/auth/permissions';
import { ReadModels } from '../read-models/read-models.service';

/** The api-keys events that change what a presented key value may do. */
const KEY_EVENTS = new Set(['ApiKeyCreated', 'ApiKeyRenamed', 'ApiKeyDeleted']);

/** The platform's KeyLookup over the api-keys read model. */
@Injectable()
export class ReadModelKeyLookup implements KeyLookup {
  private readonly keys: ApiKeysQueries;

  constructor(private readonly readModels: ReadModels) {
    this.keys = apiKeysQueries(readModels);
  }

  byDigest(digest: string): Awaitable<{ key: KeyRecord | undefined; switched: boolean }> {
    return andThen(this.keys.keyByDigest(digest), ({ row, switched }) => ({
      key: row ? toKey(row) : undefined,
      switched,
    }));
  }

  onKeysChanged(listener: () => void): void {
    // the read model calls this when the batch commits, before read-your-writes waiters wake
    this.readModels.onApplied(API_KEYS_READ_MODEL, (batch) => {
      if (batch.some((event) => KEY_EVENTS.has(event.type))) listener();
    });
  }
}

function toKey(row: KeyLookupRow): KeyRecord {
  return {
    id: row.id,
    accountId: row.account_id,
    name: row.name,
    agents: JSON.parse(row.agents),
    permissions: JSON.parse(row.permissions) as Permission[],
    expiresAt: row.expires_at,
    expiresAtMs: Date.parse(row.expires_at),
    keyDigest: row.key_digest,
    last4: row.last4,
    deletedAt: row.deleted_at,
  };
}
