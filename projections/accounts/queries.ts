import type { DataSource } from 'typeorm';
import { ReadQuery } from '../../src/read-models/read-query';
import type { Lookup, Plain, ReadModelSources } from '../query-kit';
import { AccountRow, ConnectorRow, PhoneNumberRow } from './accounts.entities';
import { ACCOUNTS_READ_MODEL } from './name';

export { ACCOUNTS_READ_MODEL } from './name';

export type Account = Plain<AccountRow>;
export type Connector = Plain<ConnectorRow>;
export type PhoneNumber = Plain<PhoneNumberRow>;

/** A connector as a prepared lookup returns it (snake_case columns). */
export interface ConnectorLookupRow {
  id: string;
  account_id: string;
  agent_id: string;
  kind: string;
  environment: string;
  host_domain: string | null;
  token_digest: string | null;
}

/** The accounts read model's queries: accounts, connectors, phone numbers and agent settings. */
export interface AccountsQueries {
  /** Every account, oldest first. */
  accounts(): Promise<Account[]>;
  account(accountId: string): Promise<Account | null>;
  connector(connectorId: string): Promise<Connector | null>;
  /** An account's connectors, oldest first. */
  connectorsOf(accountId: string): Promise<Connector[]>;
  /** The number, when it is provisioned for this agent in this environment. */
  phoneNumber(agentId: string, environment: string, number: string): Promise<PhoneNumber | null>;
  /** An agent's numbers in an environment, by number. */
  phoneNumbersOf(agentId: string, environment: string): Promise<PhoneNumber[]>;
  phoneNumbersOfAccount(accountId: string): Promise<PhoneNumber[]>;
  /** An agent's numbers in every environment, by environment then number. */
  phoneNumbersOfAgent(agentId: string): Promise<PhoneNumber[]>;
  /** Where a number is provisioned (the agent that answers it), in any account. */
  phoneNumberRoute(number: string): Promise<PhoneNumber | null>;
  /** Prepared (every messaging request): a connector by the digest of its token. */
  connectorByDigest(digest: string): Lookup<ConnectorLookupRow>;
  /** Prepared: a connector by id. */
  connectorById(connectorId: string): Lookup<ConnectorLookupRow>;
  /** Prepared (every request on an account's region-bound host): the account's region. */
  regionOf(accountId: string): Lookup<{ region: string }>;
  /** Prepared (every conversations listing): whether the agent streams its answers in chunks. */
  chunkedStreaming(agentId: string): Lookup<{ chunked_streaming: number | boolean }>;
}

class AccountsReadModel implements AccountsQueries {
  private readonly byDigest: ReadQuery<ConnectorLookupRow>;
  private readonly byId: ReadQuery<ConnectorLookupRow>;
  private readonly streaming: ReadQuery<{ chunked_streaming: number | boolean }>;
  private readonly region: ReadQuery<{ region: string }>;

  constructor(private readonly source: () => DataSource) {
    this.byDigest = new ReadQuery(source, 'SELECT * FROM connector WHERE token_digest = ?');
    this.byId = new ReadQuery(source, 'SELECT * FROM connector WHERE id = ?');
    this.region = new ReadQuery(source, 'SELECT region FROM account WHERE id = ?');
    this.streaming = new ReadQuery(source, 'SELECT chunked_streaming FROM agent_settings WHERE agent_id = ?');
  }

  accounts() {
    return this.source()
      .getRepository(AccountRow)
      .find({ order: { createdAt: 'ASC', id: 'ASC' } });
  }

  account(accountId: string) {
    return this.source().getRepository(AccountRow).findOneBy({ id: accountId });
  }

  connector(connectorId: string) {
    return this.source().getRepository(ConnectorRow).findOneBy({ id: connectorId });
  }

  connectorsOf(accountId: string) {
    return this.source()
      .getRepository(ConnectorRow)
      .find({ where: { accountId }, order: { createdAt: 'ASC', id: 'ASC' } });
  }

  phoneNumber(agentId: string, environment: string, number: string) {
    return this.source().getRepository(PhoneNumberRow).findOneBy({ number, agentId, environment });
  }

  phoneNumbersOf(agentId: string, environment: string) {
    return this.source()
      .getRepository(PhoneNumberRow)
      .find({ where: { agentId, environment }, order: { number: 'ASC' } });
  }

  phoneNumbersOfAccount(accountId: string) {
    return this.source().getRepository(PhoneNumberRow).findBy({ accountId });
  }

  phoneNumbersOfAgent(agentId: string) {
    return this.source()
      .getRepository(PhoneNumberRow)
      .find({ where: { agentId }, order: { environment: 'ASC', number: 'ASC' } });
  }

  phoneNumberRoute(number: string) {
    return this.source().getRepository(PhoneNumberRow).findOneBy({ number });
  }

  connectorByDigest(digest: string) {
    return this.byDigest.get(digest);
  }

  connectorById(connectorId: string) {
    return this.byId.get(connectorId);
  }

  regionOf(accountId: string) {
    return this.region.get(accountId);
  }

  chunkedStreaming(agentId: string) {
    return this.streaming.get(agentId);
  }
}

/** The accounts read model's queries on whichever generation serves now (one implementation for both databases). */
export function accountsQueries(readModels: ReadModelSources): AccountsQueries {
  return new AccountsReadModel(() => readModels.source(ACCOUNTS_READ_MODEL));
}
