import { Injectable } from '@nestjs/common';
import { ReadModels } from '../read-models/read-models.service';
import { agentsQueries, type AgentsQueries, AGENTS_READ_MODEL } from '../../projections/agents/queries';
import { andThen, type Awaitable } from '../platform/awaitable';
import type { AgentDirectory } from '../platform/auth/agent-directory';

/** Owners remembered at most; beyond that the oldest is looked up again. */
const MAX_CACHED = 10_000;
/** The events that can change an agent's owner or existence. */
const OWNER_EVENTS = new Set(['AgentCreated', 'AgentDeleted']);

/**
 * AgentDirectory over the agents read model: asked on every guarded request (and again by the
 * runtime), so live agents' owners are remembered until the projection applies an event that
 * could change one, or serves a rebuilt generation.
 */
@Injectable()
export class ReadModelAgentDirectory implements AgentDirectory {
  private readonly query: AgentsQueries;
  private readonly owners = new Map<string, string>();
  /** Bumped by every invalidation: a lookup begun before one must not fill the cache after it. */
  private epoch = 0;

  constructor(readModels: ReadModels) {
    this.query = agentsQueries(readModels);
    readModels.onApplied(AGENTS_READ_MODEL, (batch) => {
      if (batch.some((event) => OWNER_EVENTS.has(event.type))) this.forget();
    });
  }

  accountOf(agentId: string): Awaitable<string | null> {
    const known = this.owners.get(agentId);
    if (known !== undefined) return known;
    const epoch = this.epoch;
    return andThen(this.query.ownerOf(agentId), ({ row, switched }) => {
      const overtaken = epoch !== this.epoch;
      // a rebuilt generation holds the same owners, but start afresh with it anyway
      if (switched) this.forget();
      if (!row || row.deleted_at !== null) return null;
      if (overtaken) return row.account_id;
      if (this.owners.size >= MAX_CACHED) this.owners.delete(this.owners.keys().next().value!);
      this.owners.set(agentId, row.account_id);
      return row.account_id;
    });
  }

  private forget(): void {
    this.owners.clear();
    this.epoch++;
  }
}
