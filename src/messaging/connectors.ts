import { ServerSecret } from '../platform/auth/server-secret';
import { ReadModels } from '../read-models/read-models.service';
import { andThen, type Awaitable } from '../platform/awaitable';
import { ReadQuery } from '../read-models/read-query';

export interface MessagingConnector {
  id: string;
  accountId: string;
  agentId: string;
  environment: string;
  hostDomain: string | null;
}

interface Row {
  id: string;
  account_id: string;
  agent_id: string;
  kind: string;
  environment: string;
  host_domain: string | null;
  token_digest: string | null;
}

const toConnector = (row: Row): MessagingConnector => ({ id: row.id, accountId: row.account_id, agentId: row.agent_id, environment: row.environment, hostDomain: row.host_domain });

/** Messaging connectors from the accounts read model, found by the digest of their token (never the token). */
export class ConnectorDirectory {
  private readonly byDigest: ReadQuery<Row>;
  private readonly byId: ReadQuery<Row>;

  constructor(
    readModels: ReadModels,
    private readonly secret: ServerSecret,
  ) {
    this.byDigest = new ReadQuery(() => readModels.source('accounts'), 'SELECT * FROM connector WHERE token_digest = ?');
    this.byId = new ReadQuery(() => readModels.source('accounts'), 'SELECT * FROM connector WHERE id = ?');
  }

  byToken(token: string): Awaitable<MessagingConnector | null> {
    const digest = this.secret.digest(token);
    return andThen(this.byDigest.get(digest), ({ row }) => {
      if (!row || row.kind !== 'messaging' || !row.token_digest || !ServerSecret.same(row.token_digest, digest)) return null;
      return toConnector(row);
    });
  }

  get(connectorId: string): Awaitable<MessagingConnector | null> {
    return andThen(this.byId.get(connectorId), ({ row }) => (row && row.kind === 'messaging' ? toConnector(row) : null));
  }
}
