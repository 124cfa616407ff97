import type { AccountEvent } from '../../src/accounts/account.events';
import { defineProjection, type ProjectionHandler } from '../../src/read-models/projection';
import { DataAccessRow } from './data-access.entities';
import { DATA_ACCESS_READ_MODEL } from './name';

type Data = Extract<AccountEvent, { type: 'DataAccessConfigured' }>['data'];

const configured: ProjectionHandler<Data> = async ({ data }, _em, rows) => {
  await rows.upsert(DataAccessRow, {
    agentId: data.agentId,
    accountId: data.accountId,
    responseMetrics: JSON.stringify(data.responseMetrics),
    showTranscripts: data.showTranscripts,
    updatedAt: data.configuredAt,
  });
};

export const dataAccessProjection = defineProjection({
  name: DATA_ACCESS_READ_MODEL,
  version: 1,
  entities: [DataAccessRow],
  handles: { DataAccessConfigured: configured },
});
