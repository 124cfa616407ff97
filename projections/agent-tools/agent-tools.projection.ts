import type { AgentEvent } from '../../src/agents/agent.events';
import type { Tool } from '../../src/agents/agent-tools.events';
import { defineProjection, handlerFor } from '../../src/read-models/projection';
import { portableSql } from '../../src/platform/database/portable-sql';
import { AgentToolSecretRow, BranchToolRow, MainToolVersionRow } from './agent-tools.entities';
import { AGENT_TOOLS_READ_MODEL } from './name';

const on = handlerFor<AgentEvent>();
const MAIN = 'main';

const toolRow = (agentId: string, branchId: string, t: Tool): BranchToolRow => ({
  agentId,
  branchId,
  toolId: t.id,
  name: t.name,
  tool: JSON.stringify(t),
});

/**
 * Agent tools on every branch (contract §20), main's tools at each sequence that changed them, and
 * the agent's sealed tool secret, from the agent streams. A branch starts as a copy of main's
 * tools; a merge applies its tool changes onto main, as the agents read model does for topics.
 */
export const agentToolsProjection = defineProjection({
  name: AGENT_TOOLS_READ_MODEL,
  version: 1,
  entities: [BranchToolRow, MainToolVersionRow, AgentToolSecretRow],
  handles: {
    BranchCreated: on<'BranchCreated'>(async ({ data }, em) => {
      await em.query(
        portableSql(
          em,
          `INSERT INTO branch_tool (agent_id, branch_id, tool_id, name, tool)
           SELECT agent_id, ?, tool_id, name, tool FROM branch_tool WHERE agent_id = ? AND branch_id = ?
           ON CONFLICT (agent_id, branch_id, tool_id) DO UPDATE SET name = excluded.name, tool = excluded.tool`,
        ),
        [data.branchId, data.agentId, MAIN],
      );
    }),
    BranchDeleted: on<'BranchDeleted'>(async ({ data }, _em, rows) => {
      await rows.delete(BranchToolRow, { agentId: data.agentId, branchId: data.branchId });
    }),
    ToolAdded: on<'ToolAdded'>(async ({ data }, _em, rows) => {
      await rows.insert(BranchToolRow, toolRow(data.agentId, data.branchId, data.tool));
    }),
    ToolEdited: on<'ToolEdited'>(async ({ data }, _em, rows) => {
      const { agentId, toolId, ...row } = toolRow(data.agentId, data.branchId, data.tool);
      await rows.update(BranchToolRow, { agentId, branchId: data.branchId, toolId }, row);
    }),
    ToolRemoved: on<'ToolRemoved'>(async ({ data }, _em, rows) => {
      await rows.delete(BranchToolRow, { agentId: data.agentId, branchId: data.branchId, toolId: data.toolId });
    }),
    ToolSecretIssued: on<'ToolSecretIssued'>(async ({ data }, _em, rows) => {
      await rows.upsert(AgentToolSecretRow, {
        agentId: data.agentId,
        sealedSecret: data.sealedSecret,
        secretLast4: data.secretLast4,
        issuedAt: data.issuedAt,
      });
    }),
    BranchMerged: on<'BranchMerged'>(async ({ data }, em, rows) => {
      const tools = data.changes.tools;
      if (!tools) return;
      // All replaced rows go first: a renamed tool may take a name another one just left.
      for (const name of [...tools.removed, ...tools.upserted.map((t) => t.name)])
        await rows.delete(BranchToolRow, { agentId: data.agentId, branchId: MAIN, name });
      for (const tool of tools.upserted) await rows.insert(BranchToolRow, toolRow(data.agentId, MAIN, tool));
      const main = await em.find(BranchToolRow, {
        where: { agentId: data.agentId, branchId: MAIN },
        order: { name: 'ASC' },
      });
      await rows.upsert(MainToolVersionRow, {
        agentId: data.agentId,
        sequence: data.sequence,
        tools: `[${main.map((t) => t.tool).join(',')}]`,
      });
    }),
  },
});
