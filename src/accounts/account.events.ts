import type { DomainEvent } from '../commands/decider';
import type { ConnectorKind, NumberPool, Permission, Region } from './permissions';

export type KeyAgents = 'all' | string[];

export type AccountEvent =
  | DomainEvent<'AccountCreated', { accountId: string; name: string; region: Region; createdAt: string }>
  | DomainEvent<
      'ApiKeyCreated',
      {
        accountId: string;
        keyId: string;
        name: string;
        agents: KeyAgents;
        permissions: Permission[];
        expiresAt: string;
        /** HMAC of the key value under the server secret; the value itself is never stored. */
        keyDigest: string;
        last4: string;
        issuedBy: 'operator' | 'key';
        createdAt: string;
      }
    >
  | DomainEvent<'ApiKeyRenamed', { accountId: string; keyId: string; name: string; renamedAt: string }>
  | DomainEvent<'ApiKeyDeleted', { accountId: string; keyId: string; deletedAt: string }>
  | DomainEvent<
      'ConnectorCreated',
      {
        accountId: string;
        connectorId: string;
        agentId: string;
        kind: ConnectorKind;
        environment: string;
        hostDomain: string | null;
        /** messaging: HMAC of the connector token */
        tokenDigest: string | null;
        /** sms: the webhook secret sealed with the server secret (it is needed to verify signatures) */
        sealedWebhookSecret: string | null;
        createdAt: string;
      }
    >
  | DomainEvent<
      'PhoneNumberProvisioned',
      {
        accountId: string;
        agentId: string;
        number: string;
        environment: string;
        /** `dni`: in the agent's DNI pool for the environment (contract §18); absent before pools: `main` */
        pool?: NumberPool;
        provisionedAt: string;
      }
    >
  | DomainEvent<
      'AgentSettingsChanged',
      { accountId: string; agentId: string; chunkedStreaming: boolean; changedAt: string }
    >
  | DomainEvent<
      'DataAccessConfigured',
      { accountId: string; agentId: string; responseMetrics: string[]; showTranscripts: boolean; configuredAt: string }
    >;

export const accountStream = (accountId: string) => `account-${accountId}`;
