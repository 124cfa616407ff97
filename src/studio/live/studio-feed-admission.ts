import { Inject, Injectable } from '@nestjs/common';
import type { IncomingMessage } from 'node:http';
import { ACCOUNT_DIRECTORY, type AccountDirectory } from '../../platform/auth/account-directory';
import { AGENT_DIRECTORY, type AgentDirectory } from '../../platform/auth/agent-directory';
import { KeyAuthenticator } from '../../platform/auth/key-authenticator';
import { keyCanReachAgent, type KeyRecord } from '../../platform/auth/key-principal';
import { CONFIG, type Config } from '../../platform/config/config';
import { DomainError, forbidden } from '../../platform/errors/domain-error';
import { parseAgentId } from '../../platform/ids/prefixed-ids';
import { keyFromSubprotocols } from '../../platform/ws/key-subprotocol';
import type { HandshakeGate } from '../../platform/ws/handshake-gate';
import { StudioFeedHub } from './studio-feed-hub';

/** Open feed sockets per key on one process: a person with a few tabs, not a fan-out service. */
const MAX_FEED_SOCKETS_PER_KEY = 10;

export interface FeedAdmitted {
  key: KeyRecord;
  /** the key's value, to re-check it when the socket speaks */
  keyValue: string;
  /** the one project the socket follows, or null: every project the key reaches */
  agentId: string | null;
}

/**
 * Decides a `/studio/ws` handshake with the Conversations API's rules: the key comes in the
 * `Sec-WebSocket-Protocol` header (`parley, parley.key.<key>`) or `x-api-key`, never the URL: 401
 * missing, unknown, deleted or expired; with PUBLIC_DOMAIN, 404 for an account of another region;
 * `project_id` (optional) 400 malformed, 403 outside the key's account or scope, 404 unknown; 429
 * past MAX_FEED_SOCKETS_PER_KEY. No permission is needed beyond reaching the project: like the
 * listing, what each notice shows follows the key's permissions and the project's data access.
 */
@Injectable()
export class StudioFeedAdmission implements HandshakeGate<FeedAdmitted> {
  constructor(
    private readonly keys: KeyAuthenticator,
    private readonly hub: StudioFeedHub,
    @Inject(AGENT_DIRECTORY) private readonly agents: AgentDirectory,
    @Inject(ACCOUNT_DIRECTORY) private readonly accounts: AccountDirectory,
    @Inject(CONFIG) private readonly config: Config,
  ) {}

  async admit(request: IncomingMessage, url: URL): Promise<FeedAdmitted> {
    if (url.searchParams.has('api_key'))
      throw new DomainError('BAD_REQUEST', 'send the key in Sec-WebSocket-Protocol or x-api-key, not the URL', 400);
    const header = request.headers['x-api-key'];
    const value = keyFromSubprotocols(request) ?? (Array.isArray(header) ? header[0] : header);
    const key = await this.keys.authenticate(value, 'x-api-key or subprotocol parley.key.<key>');
    if (this.config.publicDomain && (await this.accounts.regionOf(key.accountId)) !== this.config.region)
      throw new DomainError('ACCOUNT_NOT_FOUND', `this account lives in another region; use that region's host`, 404);
    const project = url.searchParams.get('project_id');
    const agentId = project === null ? null : await this.reachable(key, project);
    if (!this.hub.reserve(key.id, MAX_FEED_SOCKETS_PER_KEY))
      throw new DomainError(
        'CONNECTION_LIMIT_EXCEEDED',
        `studio feed connection limit exceeded for this key (${MAX_FEED_SOCKETS_PER_KEY} open)`,
        429,
      );
    return { key, keyValue: value!, agentId };
  }

  abandon(admitted: FeedAdmitted): void {
    this.hub.release(admitted.key.id);
  }

  /** The key guard's order: another account's project is 403 before an unknown one is 404. */
  private async reachable(key: KeyRecord, raw: string): Promise<string> {
    const agentId = parseAgentId(raw);
    const owner = await this.agents.accountOf(agentId);
    if (owner !== null && owner !== key.accountId)
      throw forbidden('this key belongs to another account', 'ACCOUNT_FORBIDDEN');
    if (!keyCanReachAgent(key, agentId)) throw forbidden('this key is not scoped to this agent', 'AGENT_FORBIDDEN');
    if (owner === null) throw new DomainError('AGENT_NOT_FOUND', 'agent not found', 404);
    return agentId;
  }
}
