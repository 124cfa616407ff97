import type { AgentEvent } from '../../src/agents/agent.events';
import { defineProjection, handlerFor } from '../../src/read-models/projection';
import { BranchSettingsRow, MainSettingsRow } from './agent-settings.entities';
import { AGENT_SETTINGS_READ_MODEL } from './name';

const on = handlerFor<AgentEvent>();
const MAIN = 'main';

/**
 * Agents' runtime settings on every branch and main's at every sequence, from the agent streams.
 * A read model of its own beside `agents` so that the agents read model is not rebuilt for them.
 * A branch starts as a copy of main's; a merge that changes them sets main's; every merge records
 * main's settings at its sequence, which the deployments of that sequence serve.
 */
export const agentSettingsProjection = defineProjection({
  name: AGENT_SETTINGS_READ_MODEL,
  version: 1,
  entities: [BranchSettingsRow, MainSettingsRow],
  handles: {
    AgentCreated: on<'AgentCreated'>(async ({ data }, _em, rows) => {
      await rows.upsert(BranchSettingsRow, { agentId: data.agentId, branchId: MAIN, settings: '{}' });
      await rows.upsert(MainSettingsRow, { agentId: data.agentId, sequence: 0, settings: '{}' });
    }),
    BranchCreated: on<'BranchCreated'>(async ({ data }, _em, rows) => {
      const main = await rows.findOne(BranchSettingsRow, { agentId: data.agentId, branchId: MAIN });
      await rows.upsert(BranchSettingsRow, {
        agentId: data.agentId,
        branchId: data.branchId,
        settings: main?.settings ?? '{}',
      });
    }),
    BranchDeleted: on<'BranchDeleted'>(async ({ data }, _em, rows) => {
      await rows.delete(BranchSettingsRow, { agentId: data.agentId, branchId: data.branchId });
    }),
    RuntimeSettingsEdited: on<'RuntimeSettingsEdited'>(async ({ data }, _em, rows) => {
      await rows.upsert(BranchSettingsRow, {
        agentId: data.agentId,
        branchId: data.branchId,
        settings: JSON.stringify(data.settings),
      });
    }),
    BranchMerged: on<'BranchMerged'>(async ({ data }, _em, rows) => {
      const { agentId, changes } = data;
      let settings = (await rows.findOne(BranchSettingsRow, { agentId, branchId: MAIN }))?.settings ?? '{}';
      if (changes.settings !== undefined) {
        settings = JSON.stringify(changes.settings);
        await rows.upsert(BranchSettingsRow, { agentId, branchId: MAIN, settings });
      }
      await rows.upsert(MainSettingsRow, { agentId, sequence: data.sequence, settings });
    }),
  },
});
