import { Injectable } from '@nestjs/common';
import { andThen, type Awaitable } from '../../platform/awaitable';
import { ReadModels } from '../../read-models/read-models.service';
import { apiKeysQueries, type ApiKeysQueries } from '../../../projections/api-keys/queries';
import type { HandoffFailure } from '../session.events';

/** Desk queues are named by the handoff's destination: a short identifier, as a routing table would hold. */
const DESTINATION = /^[A-Za-z0-9][A-Za-z0-9_.:/-]{0,63}$/;

/**
 * Whether the embedded desk can take a handoff: the destination must name a queue ("invalid"
 * otherwise), and someone must be able to answer it: a live key of the account with the `desk`
 * permission that reaches the agent ("no_desk" otherwise: failing at once beats waiting out the
 * timeout for a desk no one can open).
 */
@Injectable()
export class DeskAvailability {
  private readonly keys: ApiKeysQueries;

  constructor(readModels: ReadModels) {
    this.keys = apiKeysQueries(readModels);
  }

  check(accountId: string, agentId: string, destination: string, nowMs: number): Awaitable<HandoffFailure | null> {
    if (!DESTINATION.test(destination)) return 'invalid';
    return andThen(this.anyDeskKey(accountId, agentId, nowMs), (any) => (any ? null : 'no_desk'));
  }

  private anyDeskKey(accountId: string, agentId: string, nowMs: number): Awaitable<boolean> {
    return andThen(this.keys.liveKeysOf(accountId), ({ rows }) =>
      rows.some((key) => {
        if (Date.parse(key.expires_at) <= nowMs) return false;
        if (!(JSON.parse(key.permissions) as string[]).includes('desk')) return false;
        const agents = JSON.parse(key.agents) as 'all' | string[];
        return agents === 'all' || agents.includes(agentId);
      }),
    );
  }
}
