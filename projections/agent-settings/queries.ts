import type { DataSource } from 'typeorm';
import type { RuntimeSettings } from '../../src/agents/agent.events';
import type { ReadModelSources } from '../query-kit';
import { BranchSettingsRow, MainSettingsRow } from './agent-settings.entities';
import { AGENT_SETTINGS_READ_MODEL } from './name';

export { AGENT_SETTINGS_READ_MODEL } from './name';

/** The agent-settings read model's queries: a branch's settings and main's at a sequence (only the fields set). */
export interface AgentSettingsQueries {
  /** null when the branch has no row (unknown or deleted) */
  ofBranch(agentId: string, branchId: string): Promise<RuntimeSettings | null>;
  /** what a deployment of `sequence` runs with ({} before the first merge that set any) */
  ofMainVersion(agentId: string, sequence: number): Promise<RuntimeSettings>;
}

class AgentSettingsReadModel implements AgentSettingsQueries {
  constructor(private readonly source: () => DataSource) {}

  async ofBranch(agentId: string, branchId: string) {
    const row = await this.source().getRepository(BranchSettingsRow).findOneBy({ agentId, branchId });
    return row ? (JSON.parse(row.settings) as RuntimeSettings) : null;
  }

  async ofMainVersion(agentId: string, sequence: number) {
    const row = await this.source().getRepository(MainSettingsRow).findOneBy({ agentId, sequence });
    return row ? (JSON.parse(row.settings) as RuntimeSettings) : {};
  }
}

export function agentSettingsQueries(readModels: ReadModelSources): AgentSettingsQueries {
  return new AgentSettingsReadModel(() => readModels.source(AGENT_SETTINGS_READ_MODEL));
}
