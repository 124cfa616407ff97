import { ReadModels } from '../read-models/read-models.service';
import { SyncQuery } from '../read-models/sync-query';
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
export class ReadModelAgentDirectory implements AgentDirectory {
  private readonly query: SyncQuery<{ account_id: string; deleted_at: string | null }>;
  private readonly owners = new Map<string, string>();

  constructor(readModels: ReadModels) {
    this.query = new SyncQuery(() => readModels.source('agents'), 'SELECT account_id, deleted_at FROM agent WHERE id = ?');
    readModels.onApplied('agents', (batch) => {
      if (batch.some((event) => OWNER_EVENTS.has(event.type))) this.owners.clear();
    });
  }

  accountOf(agentId: string): string | null {
    const known = this.owners.get(agentId);
    if (known !== undefined) return known;
    // a rebuilt generation holds the same owners, but start afresh with it anyway
    const { row, switched } = this.query.get(agentId);
    if (switched) this.owners.clear();
    if (!row || row.deleted_at !== null) return null;
    if (this.owners.size >= MAX_CACHED) this.owners.delete(this.owners.keys().next().value!);
    this.owners.set(agentId, row.account_id);
    return row.account_id;
  }
}
