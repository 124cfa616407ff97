import { Injectable } from '@nestjs/common';
import { ServerSecret } from '../platform/auth/server-secret';
import { ReadModels } from '../read-models/read-models.service';
import { andThen, type Awaitable } from '../platform/awaitable';
import { accountsQueries, type AccountsQueries, type ConnectorLookupRow } from '../../projections/accounts/queries';

export interface MessagingConnector {
  id: string;
  accountId: string;
  agentId: string;
  environment: string;
  hostDomain: string | null;
}

type Row = ConnectorLookupRow;

const toConnector = (row: Row): MessagingConnector => ({
  id: row.id,
  accountId: row.account_id,
  agentId: row.agent_id,
  environment: row.environment,
  hostDomain: row.host_domain,
});

/** Messaging connectors from the accounts read model, found by the digest of their token (never the token). */
@Injectable()
export class ConnectorDirectory {
  private readonly accounts: AccountsQueries;

  constructor(
    readModels: ReadModels,
    private readonly secret: ServerSecret,
  ) {
    this.accounts = accountsQueries(readModels);
  }

  byToken(token: string): Awaitable<MessagingConnector | null> {
    const digest = this.secret.digest(token);
    return andThen(this.accounts.connectorByDigest(digest), ({ row }) => {
      if (!row || row.kind !== 'messaging' || !row.token_digest || !ServerSecret.same(row.token_digest, digest))
        return null;
      return toConnector(row);
    });
  }

  get(connectorId: string): Awaitable<MessagingConnector | null> {
    return andThen(this.accounts.connectorById(connectorId), ({ row }) =>
      row && row.kind === 'messaging' ? toConnector(row) : null,
    );
  }
}
