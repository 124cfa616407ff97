import type { DataSource } from 'typeorm';
import { LessThanOrEqual } from 'typeorm';
import type { Tool } from '../../src/agents/agent-tools.events';
import type { Plain, ReadModelSources } from '../query-kit';
import { AgentToolSecretRow, BranchToolRow, MainToolVersionRow } from './agent-tools.entities';
import { AGENT_TOOLS_READ_MODEL } from './name';

export { AGENT_TOOLS_READ_MODEL } from './name';

type AgentToolSecret = Plain<AgentToolSecretRow>;

/** The agent-tools read model's queries. */
export interface AgentToolsQueries {
  /** A branch's tools by name. */
  toolsOf(agentId: string, branchId: string): Promise<Tool[]>;
  tool(agentId: string, branchId: string, toolId: string): Promise<Tool | null>;
  /** Main's tools as a deployment of `sequence` serves them. */
  toolsAt(agentId: string, sequence: number): Promise<Tool[]>;
  secretOf(agentId: string): Promise<AgentToolSecret | null>;
}

class AgentToolsReadModel implements AgentToolsQueries {
  constructor(private readonly source: () => DataSource) {}

  async toolsOf(agentId: string, branchId: string) {
    const rows = await this.source()
      .getRepository(BranchToolRow)
      .find({ where: { agentId, branchId }, order: { name: 'ASC' } });
    return rows.map((r) => JSON.parse(r.tool) as Tool);
  }

  async tool(agentId: string, branchId: string, toolId: string) {
    const row = await this.source().getRepository(BranchToolRow).findOneBy({ agentId, branchId, toolId });
    return row ? (JSON.parse(row.tool) as Tool) : null;
  }

  async toolsAt(agentId: string, sequence: number) {
    const row = await this.source()
      .getRepository(MainToolVersionRow)
      .findOne({ where: { agentId, sequence: LessThanOrEqual(sequence) }, order: { sequence: 'DESC' } });
    return row ? (JSON.parse(row.tools) as Tool[]) : [];
  }

  secretOf(agentId: string) {
    return this.source().getRepository(AgentToolSecretRow).findOneBy({ agentId });
  }
}

export function agentToolsQueries(readModels: ReadModelSources): AgentToolsQueries {
  return new AgentToolsReadModel(() => readModels.source(AGENT_TOOLS_READ_MODEL));
}
