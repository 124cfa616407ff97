import type { AccountEvent } from '../../src/accounts/account.events';
import { defineProjection, handlerFor } from '../../src/read-models/projection';
import { AccountRow, AgentSettingsRow, ConnectorRow, PhoneNumberRow } from './accounts.entities';

const on = handlerFor<AccountEvent>();

/** Accounts and what the operator attached to them: connectors, phone numbers, agent settings. */
export const accountsProjection = defineProjection({
  name: 'accounts',
  version: 1,
  entities: [AccountRow, ConnectorRow, PhoneNumberRow, AgentSettingsRow],
  handles: {
    AccountCreated: on<'AccountCreated'>(async ({ data }, em) => {
      await em.upsert(AccountRow, { id: data.accountId, name: data.name, region: data.region, createdAt: data.createdAt }, ['id']);
    }),
    ConnectorCreated: on<'ConnectorCreated'>(async ({ data }, em) => {
      await em.upsert(
        ConnectorRow,
        {
          id: data.connectorId,
          accountId: data.accountId,
          agentId: data.agentId,
          kind: data.kind,
          environment: data.environment,
          hostDomain: data.hostDomain,
          tokenDigest: data.tokenDigest,
          sealedWebhookSecret: data.sealedWebhookSecret,
          createdAt: data.createdAt,
        },
        ['id'],
      );
    }),
    PhoneNumberProvisioned: on<'PhoneNumberProvisioned'>(async ({ data }, em) => {
      await em.upsert(PhoneNumberRow, { number: data.number, accountId: data.accountId, agentId: data.agentId, environment: data.environment, provisionedAt: data.provisionedAt }, ['number']);
    }),
    AgentSettingsChanged: on<'AgentSettingsChanged'>(async ({ data }, em) => {
      await em.upsert(AgentSettingsRow, { agentId: data.agentId, accountId: data.accountId, chunkedStreaming: data.chunkedStreaming, updatedAt: data.changedAt }, ['agentId']);
    }),
  },
});
