import { Injectable } from '@nestjs/common';
import type { CommandContext } from '../commands/command-context';
import { notFound } from '../platform/errors/domain-error';
import { invalidField } from '../platform/validation/field-checks';
import { parseBranchId } from '../platform/ids/prefixed-ids';
import { ReadModels } from '../read-models/read-models.service';
import { EmbeddingEndpoints } from './endpoints/embedding-endpoints';
import { LlmEndpoints } from './endpoints/llm-endpoints';
import { RUNTIME_DEFAULTS } from './runtime-defaults';
import { agentsQueries, type AgentsQueries } from '../../projections/agents/queries';
import { agentSettingsQueries, type AgentSettingsQueries } from '../../projections/agent-settings/queries';
import { MAIN } from './agent.decider';
import { AgentCommands } from './agent-commands';
import type { RuntimeSettingsDto } from './dto/runtime-settings.dto';
import {
  applySettingsPatch,
  endpointsOf,
  SETTINGS_FIELDS,
  type RuntimeSettings,
  type RuntimeSettingsPatch,
} from './runtime-settings';

/** An agent's runtime settings on a branch, with the defaults filled in and which fields are the agent's own. */
function settingsView(settings: RuntimeSettings) {
  return {
    settings: {
      confidence_threshold: settings.confidence_threshold ?? RUNTIME_DEFAULTS.confidence_threshold,
      fallback_text: settings.fallback_text ?? RUNTIME_DEFAULTS.fallback_text,
      small_talk: settings.small_talk ?? RUNTIME_DEFAULTS.small_talk,
      model: settings.model ?? null,
      environment_models: settings.environment_models ?? {},
      retrieval: settings.retrieval ?? { mode: 'lexical' },
      environment_retrieval: settings.environment_retrieval ?? {},
      voice: { ...settings.voice, recording: settings.voice?.recording ?? false },
      privacy: { redact: settings.privacy?.redact ?? [] },
      analysis: { fields: settings.analysis?.fields ?? [] },
    },
    customized: SETTINGS_FIELDS.filter((f) => settings[f] !== undefined),
  };
}

/** GET/PUT `/v1/agents/{agentId}/branches/{branchId}/settings`. */
@Injectable()
export class RuntimeSettingsService {
  private readonly agents: AgentsQueries;
  private readonly settings: AgentSettingsQueries;

  constructor(
    private readonly commands: AgentCommands,
    private readonly endpoints: LlmEndpoints,
    private readonly embeddingEndpoints: EmbeddingEndpoints,
    readModels: ReadModels,
  ) {
    this.agents = agentsQueries(readModels);
    this.settings = agentSettingsQueries(readModels);
  }

  async get(agentId: string, rawBranchId: string) {
    const branchId = branchIdOf(rawBranchId);
    const agent = await this.agents.agent(agentId);
    if (!agent || agent.deletedAt) throw notFound('AGENT_NOT_FOUND', 'agent not found');
    const settings = await this.settings.ofBranch(agentId, branchId);
    if (!settings) throw notFound('BRANCH_NOT_FOUND', 'branch not found');
    return settingsView(settings);
  }

  async put(agentId: string, rawBranchId: string, dto: RuntimeSettingsDto, context: CommandContext) {
    const branchId = branchIdOf(rawBranchId);
    // plain data: the DTO instances carry every declared field, the absent ones as undefined
    const changes = JSON.parse(JSON.stringify(dto)) as RuntimeSettingsPatch;
    // an endpoint must exist when it is named (the operator may delete it later: the turn then falls back)
    const named = endpointsOf(applySettingsPatch({}, changes));
    await mustExist(named.models, this.endpoints, 'model endpoint');
    await mustExist(named.embeddings, this.embeddingEndpoints, 'embeddings endpoint');
    const { state } = await this.commands.execute(agentId, { type: 'EditRuntimeSettings', branchId, changes }, context);
    return settingsView(state.branches.get(branchId)?.content.settings ?? {});
  }
}

async function mustExist(names: string[], list: { names(): Promise<Set<string>> }, noun: string): Promise<void> {
  if (names.length === 0) return;
  const known = await list.names();
  const unknown = names.find((name) => !known.has(name));
  if (unknown !== undefined) throw invalidField('endpoint', `no ${noun} is named ${unknown}`);
}

const branchIdOf = (raw: string) => (raw === MAIN ? MAIN : parseBranchId(raw));
