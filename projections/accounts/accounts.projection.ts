import type { AccountEvent } from '../../src/accounts/account.events';
import { defineProjection, handlerFor } from '../../src/read-models/projection';
import { AccountRow, AgentSettingsRow, ConnectorRow, PhoneNumberRow } from './accounts.entities';
import { ACCOUNTS_READ_MODEL } from './name';

const on = handlerFor<AccountEvent>();

/** Accounts and what the operator attached to them: connectors, phone numbers, agent settings. */
export const accountsProjection = defineProjection({
  name: ACCOUNTS_READ_MODEL,
  version: 2,
  entities: [AccountRow, ConnectorRow, PhoneNumberRow, AgentSettingsRow],
  handles: {
    AccountCreated: on<'AccountCreated'>(async ({ data }, _em, rows) => {
      await rows.upsert(AccountRow, {
        id: data.accountId,
        name: data.name,
        region: data.region,
        createdAt: data.createdAt,
      });
    }),
    ConnectorCreated: on<'ConnectorCreated'>(async ({ data }, _em, rows) => {
      await rows.upsert(ConnectorRow, {
        id: data.connectorId,
        accountId: data.accountId,
        agentId: data.agentId,
        kind: data.kind,
        environment: data.environment,
        hostDomain: data.hostDomain,
        tokenDigest: data.tokenDigest,
        sealedWebhookSecret: data.sealedWebhookSecret,
        createdAt: data.createdAt,
      });
    }),
    PhoneNumberProvisioned: on<'PhoneNumberProvisioned'>(async ({ data }, _em, rows) => {
      await rows.upsert(PhoneNumberRow, {
        number: data.number,
        accountId: data.accountId,
        agentId: data.agentId,
        environment: data.environment,
        pool: data.pool ?? 'main',
        provisionedAt: data.provisionedAt,
      });
    }),
    AgentSettingsChanged: on<'AgentSettingsChanged'>(async ({ data }, _em, rows) => {
      await rows.upsert(AgentSettingsRow, {
        agentId: data.agentId,
        accountId: data.accountId,
        chunkedStreaming: data.chunkedStreaming,
        updatedAt: data.changedAt,
      });
    }),
  },
});
