import { DomainError } from '../platform/errors/domain-error';
import { accountDecider, type AccountCommand, type AccountState } from './account.decider';
import type { AccountEvent } from './account.events';

/** given events / when command / then events (or error) */
const NOW = '2026-11-22T10:00:00.000Z';
const LATER = '2026-11-22T11:00:00.000Z';

function given(...events: AccountEvent[]): AccountState {
  return events.reduce(accountDecider.evolve, accountDecider.initialState());
}

function when(state: AccountState, command: AccountCommand): AccountEvent[] {
  return accountDecider.decide(command, state);
}

function refusal(state: AccountState, command: AccountCommand): DomainError {
  try {
    accountDecider.decide(command, state);
  } catch (error) {
    expect(error).toBeInstanceOf(DomainError);
    return error as DomainError;
  }
  throw new Error(`expected ${command.type} to be refused`);
}

const created: AccountEvent = {
  type: 'AccountCreated',
  data: { accountId: 'acc1', name: 'Acme', region: 'us', createdAt: NOW },
};

const keyCreated = (keyId: string): AccountEvent => ({
  type: 'ApiKeyCreated',
  data: {
    accountId: 'acc1',
    keyId,
    name: 'ci',
    agents: 'all',
    permissions: ['agents'],
    expiresAt: '2027-01-01T00:00:00.000Z',
    keyDigest: `digest-${keyId}`,
    last4: 'abcd',
    issuedBy: 'operator',
    createdAt: NOW,
  },
});
const keyDeleted = (keyId: string): AccountEvent => ({
  type: 'ApiKeyDeleted',
  data: { accountId: 'acc1', keyId, deletedAt: NOW },
});
const numberProvisioned = (number: string, agentId: string): AccountEvent => ({
  type: 'PhoneNumberProvisioned',
  data: { accountId: 'acc1', agentId, number, environment: 'dev', provisionedAt: NOW },
});
const connectorCreated = (connectorId: string): AccountEvent => ({
  type: 'ConnectorCreated',
  data: {
    accountId: 'acc1',
    connectorId,
    agentId: 'ag1',
    kind: 'sms',
    environment: 'dev',
    hostDomain: null,
    tokenDigest: null,
    sealedWebhookSecret: 'v1.x.y.z',
    createdAt: NOW,
  },
});

const createKey = (keyId = 'key_1'): AccountCommand => ({
  type: 'CreateApiKey',
  keyId,
  name: 'ci',
  agents: ['ag1', 'ag2'],
  permissions: ['agents', 'keys'],
  expiresAt: '2027-01-01T00:00:00.000Z',
  keyDigest: 'd1',
  last4: 'wxyz',
  issuedBy: 'key',
  now: LATER,
});
const createConnector = (connectorId = 'con_1'): AccountCommand => ({
  type: 'CreateConnector',
  connectorId,
  agentId: 'ag1',
  kind: 'messaging',
  environment: 'live',
  hostDomain: 'example.com',
  tokenDigest: 'td',
  sealedWebhookSecret: null,
  now: LATER,
});

/** Every command that needs an existing account. */
const accountCommands: AccountCommand[] = [
  createKey(),
  { type: 'RenameApiKey', keyId: 'key_1', name: 'x', now: LATER },
  { type: 'DeleteApiKey', keyId: 'key_1', now: LATER },
  createConnector(),
  { type: 'ProvisionPhoneNumber', agentId: 'ag1', number: '+15551234567', environment: 'dev', now: LATER },
  { type: 'ChangeAgentSettings', agentId: 'ag1', chunkedStreaming: true, now: LATER },
  { type: 'ConfigureDataAccess', agentId: 'ag1', responseMetrics: [], showTranscripts: false, now: LATER },
];

describe('account decider', () => {
  describe('CreateAccount', () => {
    it('creates a new account', () => {
      expect(when(given(), { type: 'CreateAccount', accountId: 'acc1', name: 'Acme', region: 'eu', now: NOW })).toEqual(
        [{ type: 'AccountCreated', data: { accountId: 'acc1', name: 'Acme', region: 'eu', createdAt: NOW } }],
      );
    });

    it('refuses an account that already exists with 409', () => {
      const error = refusal(given(created), {
        type: 'CreateAccount',
        accountId: 'acc1',
        name: 'Again',
        region: 'us',
        now: LATER,
      });
      expect(error.status).toBe(409);
      expect(error.code).toBe('ACCOUNT_EXISTS');
    });
  });

  describe.each(accountCommands.map((c) => [c.type, c] as const))('%s on a missing account', (_type, command) => {
    it('is refused with 404 ACCOUNT_NOT_FOUND', () => {
      const error = refusal(given(), command);
      expect(error.status).toBe(404);
      expect(error.code).toBe('ACCOUNT_NOT_FOUND');
    });
  });

  describe('CreateApiKey', () => {
    it('records the key with its digest (never a value), scope and issuer', () => {
      expect(when(given(created), createKey())).toEqual([
        {
          type: 'ApiKeyCreated',
          data: {
            accountId: 'acc1',
            keyId: 'key_1',
            name: 'ci',
            agents: ['ag1', 'ag2'],
            permissions: ['agents', 'keys'],
            expiresAt: '2027-01-01T00:00:00.000Z',
            keyDigest: 'd1',
            last4: 'wxyz',
            issuedBy: 'key',
            createdAt: LATER,
          },
        },
      ]);
    });

    it('refuses a duplicate key id with 409', () => {
      expect(refusal(given(created, keyCreated('key_1')), createKey('key_1')).status).toBe(409);
    });

    it('keys are independent: a second key is just another event', () => {
      expect(when(given(created, keyCreated('key_1')), createKey('key_2'))).toHaveLength(1);
    });
  });

  describe('RenameApiKey', () => {
    it('renames a live key', () => {
      expect(
        when(given(created, keyCreated('key_1')), {
          type: 'RenameApiKey',
          keyId: 'key_1',
          name: 'renamed',
          now: LATER,
        }),
      ).toEqual([
        { type: 'ApiKeyRenamed', data: { accountId: 'acc1', keyId: 'key_1', name: 'renamed', renamedAt: LATER } },
      ]);
    });

    it.each([
      ['an unknown key', given(created)],
      ['a deleted key', given(created, keyCreated('key_1'), keyDeleted('key_1'))],
      ['a key of another id', given(created, keyCreated('key_2'))],
    ])('refuses %s with 404', (_what, state) => {
      const error = refusal(state, { type: 'RenameApiKey', keyId: 'key_1', name: 'x', now: LATER });
      expect(error.status).toBe(404);
      expect(error.code).toBe('API_KEY_NOT_FOUND');
    });
  });

  describe('DeleteApiKey', () => {
    it('deletes a live key', () => {
      expect(when(given(created, keyCreated('key_1')), { type: 'DeleteApiKey', keyId: 'key_1', now: LATER })).toEqual([
        { type: 'ApiKeyDeleted', data: { accountId: 'acc1', keyId: 'key_1', deletedAt: LATER } },
      ]);
    });

    it.each([
      ['an unknown key', given(created)],
      ['a deleted key', given(created, keyCreated('key_1'), keyDeleted('key_1'))],
    ])('refuses %s with 404', (_what, state) => {
      const error = refusal(state, { type: 'DeleteApiKey', keyId: 'key_1', now: LATER });
      expect(error.status).toBe(404);
      expect(error.code).toBe('API_KEY_NOT_FOUND');
    });

    it('a deleted key id cannot be reused', () => {
      expect(refusal(given(created, keyCreated('key_1'), keyDeleted('key_1')), createKey('key_1')).status).toBe(409);
    });
  });

  describe('CreateConnector', () => {
    it('records the connector with only the digest / sealed secret', () => {
      expect(when(given(created), createConnector())).toEqual([
        {
          type: 'ConnectorCreated',
          data: {
            accountId: 'acc1',
            connectorId: 'con_1',
            agentId: 'ag1',
            kind: 'messaging',
            environment: 'live',
            hostDomain: 'example.com',
            tokenDigest: 'td',
            sealedWebhookSecret: null,
            createdAt: LATER,
          },
        },
      ]);
    });

    it('refuses a duplicate connector id with 409', () => {
      expect(refusal(given(created, connectorCreated('con_1')), createConnector('con_1')).status).toBe(409);
    });
  });

  describe('ProvisionPhoneNumber', () => {
    const provision = (agentId: string, number = '+15551234567', environment = 'live'): AccountCommand => ({
      type: 'ProvisionPhoneNumber',
      agentId,
      number,
      environment,
      now: LATER,
    });

    it('provisions a free number', () => {
      expect(when(given(created), provision('ag1'))).toEqual([
        {
          type: 'PhoneNumberProvisioned',
          data: {
            accountId: 'acc1',
            agentId: 'ag1',
            number: '+15551234567',
            environment: 'live',
            pool: 'main',
            provisionedAt: LATER,
          },
        },
      ]);
    });

    it('refuses a number held by another agent with 409', () => {
      const error = refusal(given(created, numberProvisioned('+15551234567', 'ag1')), provision('ag2'));
      expect(error.status).toBe(409);
      expect(error.code).toBe('PHONE_NUMBER_TAKEN');
    });

    it('repeating the same agent, number and environment changes nothing', () => {
      expect(
        when(given(created, numberProvisioned('+15551234567', 'ag1')), provision('ag1', '+15551234567', 'dev')),
      ).toEqual([]);
    });

    it('the same agent may move its number to another environment', () => {
      const events = when(
        given(created, numberProvisioned('+15551234567', 'ag1')),
        provision('ag1', '+15551234567', 'live'),
      );
      expect(events).toEqual([
        { type: 'PhoneNumberProvisioned', data: expect.objectContaining({ agentId: 'ag1', environment: 'live' }) },
      ]);
    });

    it('another number for the same agent is a new event', () => {
      expect(
        when(given(created, numberProvisioned('+15551234567', 'ag1')), provision('ag1', '+15557654321')),
      ).toHaveLength(1);
    });
  });

  describe('ChangeAgentSettings', () => {
    it.each([true, false])('records chunked_streaming=%p', (chunkedStreaming) => {
      expect(
        when(given(created), { type: 'ChangeAgentSettings', agentId: 'ag1', chunkedStreaming, now: LATER }),
      ).toEqual([
        {
          type: 'AgentSettingsChanged',
          data: { accountId: 'acc1', agentId: 'ag1', chunkedStreaming, changedAt: LATER },
        },
      ]);
    });
  });

  describe('ConfigureDataAccess', () => {
    it('records the configuration, without duplicate metric names', () => {
      expect(
        when(given(created), {
          type: 'ConfigureDataAccess',
          agentId: 'ag1',
          responseMetrics: ['CALL_COMPLETED', 'HANDOFF_TO', 'CALL_COMPLETED', 'my_metric'],
          showTranscripts: true,
          now: LATER,
        }),
      ).toEqual([
        {
          type: 'DataAccessConfigured',
          data: {
            accountId: 'acc1',
            agentId: 'ag1',
            responseMetrics: ['CALL_COMPLETED', 'HANDOFF_TO', 'my_metric'],
            showTranscripts: true,
            configuredAt: LATER,
          },
        },
      ]);
    });
  });

  describe('evolve', () => {
    it('tracks existence, keys, connectors and numbers', () => {
      const state = given(
        created,
        keyCreated('key_1'),
        keyCreated('key_2'),
        keyDeleted('key_2'),
        connectorCreated('con_1'),
        numberProvisioned('+15551234567', 'ag1'),
      );
      expect(state.exists).toBe(true);
      expect(state.accountId).toBe('acc1');
      expect(state.keys.get('key_1')).toEqual({ deleted: false });
      expect(state.keys.get('key_2')).toEqual({ deleted: true });
      expect(state.connectors.has('con_1')).toBe(true);
      expect(state.numbers.get('+15551234567')).toEqual({ agentId: 'ag1', environment: 'dev', pool: 'main' });
    });

    it('does not mutate the state it was given', () => {
      const before = given(created);
      const after = accountDecider.evolve(before, keyCreated('key_1'));
      expect(before.keys.size).toBe(0);
      expect(after.keys.size).toBe(1);
    });

    it('ignores events that do not change the decision state', () => {
      const state = given(created);
      const renamed = accountDecider.evolve(state, {
        type: 'ApiKeyRenamed',
        data: { accountId: 'acc1', keyId: 'key_1', name: 'x', renamedAt: NOW },
      });
      expect(renamed).toEqual(state);
    });
  });

  describe('defence in depth: what the DTOs refuse, the decider refuses too', () => {
    it('RenameApiKey with a null name is a VALIDATION_ERROR, never recorded', () => {
      const error = refusal(given(created, keyCreated('key_1')), {
        type: 'RenameApiKey',
        keyId: 'key_1',
        name: null as unknown as string,
        now: LATER,
      });
      expect({ code: error.code, status: error.status, fields: error.fieldErrors }).toEqual({
        code: 'VALIDATION_ERROR',
        status: 400,
        fields: [{ field: 'name', message: 'name must not be null' }],
      });
    });

    it('CreateApiKey with wrong types is refused', () => {
      const state = given(created);
      expect(refusal(state, { ...createKey(), name: 42 } as unknown as AccountCommand).status).toBe(400);
      expect(refusal(state, { ...createKey(), permissions: null } as unknown as AccountCommand).status).toBe(400);
      expect(refusal(state, { ...createKey(), agents: [null] } as unknown as AccountCommand).status).toBe(400);
      expect(when(state, createKey())).toHaveLength(1);
    });
  });
});
