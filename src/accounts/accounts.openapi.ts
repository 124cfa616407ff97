import { ref, routeDocs } from '../openapi/route-docs';
import { arr, bool, nullable, obj, oneOf, str, time } from '../openapi/schema-helpers';
import { AdminController } from './admin.controller';
import { PERMISSIONS } from './permissions';
import { ApiKeySelfController, ApiKeysController } from './api-keys.controller';
import { DataAccessController } from './data-access.controller';

const account = obj({ accountId: str, name: str, region: str, createdAt: time });
const connector = obj(
  {
    connectorId: str,
    accountId: str,
    agentId: str,
    kind: oneOf('messaging', 'sms'),
    environment: str,
    createdAt: time,
  },
  { hostDomain: nullable(str) },
);
const phoneNumber = obj(
  {
    agentId: str,
    number: str,
    environment: oneOf('dev', 'sandbox', 'live'),
    pool: oneOf('main', 'dni'),
    provisionedAt: time,
  },
  {
    reserved: { type: 'boolean', description: 'DNI pool numbers only: a reservation holds it now' },
    reservedUntil: { ...nullable(time), description: 'DNI pool numbers only: when the reservation ends' },
  },
);

const provisioned = obj({ agentId: str, number: str, environment: str, pool: oneOf('main', 'dni') });

export const adminDocs = routeDocs(
  AdminController,
  'operator',
  {
    createAccount: {
      summary: 'Create an account',
      example: { name: 'Acme', region: 'us' },
      responses: { 201: { description: 'The account', schema: account } },
    },
    listAccounts: {
      summary: 'List accounts',
      responses: { 200: { description: 'Every account', schema: obj({ accounts: arr(account) }) } },
    },
    createKey: {
      summary: 'Issue an API key for an account (the secret is shown once, in `key`)',
      errors: [404],
      responses: { 201: { description: 'The key, with its secret', schema: ref('ApiKey') } },
    },
    createConnector: {
      summary: 'Create a messaging or SMS connector for an agent',
      errors: [404],
      responses: {
        201: {
          description: 'The connector, with its token or webhook secret (shown once)',
          schema: obj(
            { connectorId: str, accountId: str, agentId: str, kind: str, environment: str, createdAt: time },
            { hostDomain: str, connectorToken: str, webhookSecret: str },
          ),
        },
      },
    },
    listConnectors: {
      summary: "List an account's connectors (their token or webhook secret is never shown again)",
      errors: [404],
      responses: { 200: { description: 'Every connector, oldest first', schema: obj({ connectors: arr(connector) }) } },
    },
    listNumbers: {
      summary: "List an agent's phone numbers in every environment, with DNI reservations",
      errors: [404],
      responses: {
        200: {
          description: 'Every number, by environment then number',
          schema: obj({ phoneNumbers: arr(phoneNumber) }),
        },
      },
    },
    provisionNumber: {
      summary: 'Provision a phone number for an agent and environment',
      errors: [404, 409],
      responses: {
        201: { description: 'The number', schema: provisioned },
        200: { description: 'Already provisioned to this agent', schema: provisioned },
      },
    },
    changeSettings: {
      summary: "Change an agent's platform settings (chunked streaming)",
      errors: [404],
      responses: {
        200: { description: 'The settings', schema: obj({ agentId: str, chunked_streaming: bool, updatedAt: time }) },
      },
    },
  },
  {
    ApiKey: obj(
      {
        id: str,
        name: str,
        agents: { oneOf: [{ const: 'all' }, arr(str)] },
        permissions: arr(oneOf(...PERMISSIONS)),
        expiresAt: time,
        key: { type: 'string', description: 'the secret in full when created, masked (`sk_…abcd`) afterwards' },
      },
      { accountId: str, createdAt: time },
    ),
  },
);

export const apiKeysDocs = routeDocs(ApiKeysController, 'accounts-and-keys', {
  create: {
    summary: 'Create a key (the secret is shown once, in `key`)',
    example: {
      name: 'reporting',
      agents: 'all',
      permissions: ['conversations'],
      expiresAt: '2027-01-01T00:00:00.000Z',
    },
    responses: { 201: { description: 'The key, with its secret', schema: ref('ApiKey') } },
  },
  list: {
    summary: "List the account's keys (secrets masked)",
    responses: { 200: { description: 'The keys', schema: obj({ apiKeys: arr(ref('ApiKey')) }) } },
  },
  get: {
    summary: 'One key (secret masked)',
    errors: [404],
    responses: { 200: { description: 'The key', schema: ref('ApiKey') } },
  },
  patch: {
    summary: 'Rename a key (other fields answer 422)',
    errors: [404, 422],
    responses: { 200: { description: 'The key', schema: ref('ApiKey') } },
  },
  delete: {
    summary: 'Delete a key',
    errors: [404],
    responses: { 204: { description: 'Deleted' } },
  },
});

export const apiKeySelfDocs = routeDocs(ApiKeySelfController, 'accounts-and-keys', {
  self: {
    summary: 'The key making the call',
    responses: { 200: { description: 'The key (secret masked)', schema: ref('ApiKey') } },
  },
});

const dataAccess = obj({ agentId: str, response_metrics: arr(str), show_transcripts: bool });

export const dataAccessDocs = routeDocs(DataAccessController, 'accounts-and-keys', {
  get: {
    summary: "An agent's data-access settings (what keys without `conversations` see)",
    errors: [404],
    responses: { 200: { description: 'The settings', schema: dataAccess } },
  },
  put: {
    summary: "Replace an agent's data-access settings",
    errors: [404],
    responses: { 200: { description: 'The settings', schema: dataAccess } },
  },
});
