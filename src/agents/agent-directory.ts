import { ReadModels } from '../read-models/read-models.service';
import { SyncQuery } from '../read-models/sync-query';
import type { AgentDirectory } from '../platform/auth/agent-directory';

/** AgentDirectory over the agents read model: a synchronous lookup on every guarded request. */
export class ReadModelAgentDirectory implements AgentDirectory {
  private readonly query: SyncQuery<{ account_id: string; deleted_at: string | null }>;

  constructor(readModels: ReadModels) {
    this.query = new SyncQuery(() => readModels.source('agents'), 'SELECT account_id, deleted_at FROM agent WHERE id = ?');
  }

  accountOf(agentId: string): string | null {
    const { row } = this.query.get(agentId);
    return row && row.deleted_at === null ? row.account_id : null;
  }
}
