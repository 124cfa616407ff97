import type { AccountEvent } from '../../src/accounts/account.events';
import { defineProjection, handlerFor } from '../../src/read-models/projection';
import { ApiKeyRow } from './api-keys.entities';
import { API_KEYS_READ_MODEL } from './name';

const on = handlerFor<AccountEvent>();

/** The keys every request is authenticated against (by digest) and the key management lists. */
export const apiKeysProjection = defineProjection({
  name: API_KEYS_READ_MODEL,
  version: 1,
  entities: [ApiKeyRow],
  handles: {
    ApiKeyCreated: on<'ApiKeyCreated'>(async ({ data }, _em, rows) => {
      await rows.upsert(ApiKeyRow, {
        id: data.keyId,
        accountId: data.accountId,
        name: data.name,
        agents: JSON.stringify(data.agents),
        permissions: JSON.stringify(data.permissions),
        expiresAt: data.expiresAt,
        keyDigest: data.keyDigest,
        last4: data.last4,
        issuedBy: data.issuedBy,
        createdAt: data.createdAt,
        deletedAt: null,
      });
    }),
    ApiKeyRenamed: on<'ApiKeyRenamed'>(async ({ data }, _em, rows) => {
      await rows.update(ApiKeyRow, { id: data.keyId }, { name: data.name });
    }),
    ApiKeyDeleted: on<'ApiKeyDeleted'>(async ({ data }, _em, rows) => {
      await rows.update(ApiKeyRow, { id: data.keyId }, { deletedAt: data.deletedAt });
    }),
  },
});
