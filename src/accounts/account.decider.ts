import { conflict, DomainError, notFound } from '../platform/errors/domain-error';
import type { Decider } from '../commands/decider';
import type { AccountEvent, KeyAgents } from './account.events';
import { checkFields } from '../platform/validation/field-checks';
import { REGIONS, type ConnectorKind, type NumberPool, type Permission, type Region } from './permissions';

export interface AccountState {
  exists: boolean;
  accountId: string | null;
  /** key id → whether it is still live */
  keys: ReadonlyMap<string, { deleted: boolean }>;
  connectors: ReadonlySet<string>;
  /** `number` → where it is provisioned, for numbers of this account */
  numbers: ReadonlyMap<string, { agentId: string; environment: string; pool: NumberPool }>;
}

export type AccountCommand =
  | { type: 'CreateAccount'; accountId: string; name: string; region: Region; now: string }
  | {
      type: 'CreateApiKey';
      keyId: string;
      name: string;
      agents: KeyAgents;
      permissions: Permission[];
      expiresAt: string;
      keyDigest: string;
      last4: string;
      issuedBy: 'operator' | 'key';
      now: string;
    }
  | { type: 'RenameApiKey'; keyId: string; name: string; now: string }
  | { type: 'DeleteApiKey'; keyId: string; now: string }
  | {
      type: 'CreateConnector';
      connectorId: string;
      agentId: string;
      kind: ConnectorKind;
      environment: string;
      hostDomain: string | null;
      tokenDigest: string | null;
      sealedWebhookSecret: string | null;
      now: string;
    }
  | {
      type: 'ProvisionPhoneNumber';
      agentId: string;
      number: string;
      environment: string;
      /** default `main` */
      pool?: NumberPool;
      now: string;
    }
  | { type: 'ChangeAgentSettings'; agentId: string; chunkedStreaming: boolean; now: string }
  | { type: 'ConfigureDataAccess'; agentId: string; responseMetrics: string[]; showTranscripts: boolean; now: string };

const initialState = (): AccountState => ({
  exists: false,
  accountId: null,
  keys: new Map(),
  connectors: new Set(),
  numbers: new Map(),
});

function evolve(state: AccountState, event: AccountEvent): AccountState {
  switch (event.type) {
    case 'AccountCreated':
      return { ...state, exists: true, accountId: event.data.accountId };
    case 'ApiKeyCreated':
      return { ...state, keys: new Map(state.keys).set(event.data.keyId, { deleted: false }) };
    case 'ApiKeyDeleted':
      return { ...state, keys: new Map(state.keys).set(event.data.keyId, { deleted: true }) };
    case 'ConnectorCreated':
      return { ...state, connectors: new Set(state.connectors).add(event.data.connectorId) };
    case 'PhoneNumberProvisioned':
      return {
        ...state,
        numbers: new Map(state.numbers).set(event.data.number, {
          agentId: event.data.agentId,
          environment: event.data.environment,
          pool: event.data.pool ?? 'main',
        }),
      };
    default:
      return state;
  }
}

function decide(command: AccountCommand, state: AccountState): AccountEvent[] {
  if (command.type === 'CreateAccount') {
    checkFields(command, { name: 'string', region: REGIONS });
    if (state.exists) throw conflict('ACCOUNT_EXISTS', `account ws-${command.accountId} already exists`);
    const { accountId, name, region, now } = command;
    return [{ type: 'AccountCreated', data: { accountId, name, region, createdAt: now } }];
  }
  if (!state.exists || !state.accountId) throw notFound('ACCOUNT_NOT_FOUND', 'account not found');
  const accountId = state.accountId;
  switch (command.type) {
    case 'CreateApiKey': {
      checkFields(command, { name: 'string', permissions: 'string[]', expiresAt: 'string' });
      if (command.agents !== 'all') checkFields(command, { agents: 'string[]' });
      if (state.keys.has(command.keyId)) throw conflict('API_KEY_EXISTS', 'a key with this id exists');
      const { keyId, name, agents, permissions, expiresAt, keyDigest, last4, issuedBy, now } = command;
      return [
        {
          type: 'ApiKeyCreated',
          data: { accountId, keyId, name, agents, permissions, expiresAt, keyDigest, last4, issuedBy, createdAt: now },
        },
      ];
    }
    case 'RenameApiKey':
      checkFields(command, { name: 'string' });
      liveKey(state, command.keyId);
      return [
        {
          type: 'ApiKeyRenamed',
          data: { accountId, keyId: command.keyId, name: command.name, renamedAt: command.now },
        },
      ];
    case 'DeleteApiKey':
      liveKey(state, command.keyId);
      return [{ type: 'ApiKeyDeleted', data: { accountId, keyId: command.keyId, deletedAt: command.now } }];
    case 'CreateConnector': {
      if (state.connectors.has(command.connectorId))
        throw conflict('CONNECTOR_EXISTS', 'a connector with this id exists');
      const { connectorId, agentId, kind, environment, hostDomain, tokenDigest, sealedWebhookSecret, now } = command;
      return [
        {
          type: 'ConnectorCreated',
          data: {
            accountId,
            connectorId,
            agentId,
            kind,
            environment,
            hostDomain,
            tokenDigest,
            sealedWebhookSecret,
            createdAt: now,
          },
        },
      ];
    }
    case 'ProvisionPhoneNumber': {
      const holder = state.numbers.get(command.number);
      if (holder !== undefined) {
        if (holder.agentId !== command.agentId)
          throw conflict('PHONE_NUMBER_TAKEN', `${command.number} is already provisioned for another agent`);
        // the same agent again: nothing to do, unless it moves the number to another environment
        if (holder.environment === command.environment && holder.pool === (command.pool ?? 'main')) return [];
      }
      const { agentId, number, environment, now } = command;
      const pool = command.pool ?? 'main';
      return [
        {
          type: 'PhoneNumberProvisioned',
          data: { accountId, agentId, number, environment, pool, provisionedAt: now },
        },
      ];
    }
    case 'ChangeAgentSettings':
      return [
        {
          type: 'AgentSettingsChanged',
          data: {
            accountId,
            agentId: command.agentId,
            chunkedStreaming: command.chunkedStreaming,
            changedAt: command.now,
          },
        },
      ];
    case 'ConfigureDataAccess': {
      const { agentId, responseMetrics, showTranscripts, now } = command;
      return [
        {
          type: 'DataAccessConfigured',
          data: {
            accountId,
            agentId,
            responseMetrics: [...new Set(responseMetrics)],
            showTranscripts,
            configuredAt: now,
          },
        },
      ];
    }
  }
}

function liveKey(state: AccountState, keyId: string): void {
  const key = state.keys.get(keyId);
  if (!key || key.deleted) throw new DomainError('API_KEY_NOT_FOUND', 'API key not found', 404);
}

export const accountDecider: Decider<AccountState, AccountCommand, AccountEvent> = { initialState, evolve, decide };
