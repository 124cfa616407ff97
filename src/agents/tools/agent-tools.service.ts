import { Inject, Injectable } from '@nestjs/common';
import { MAIN } from '../agent.decider';
import { AgentCommands } from '../agent-commands';
import type { SealedToolHeaders, SealedToolSecret, Tool, ToolContent } from '../agent-tools.events';
import type { CommandContext } from '../../commands/command-context';
import { newCredential } from '../../platform/auth/credentials';
import { ServerSecret } from '../../platform/auth/server-secret';
import { CONFIG, type Config } from '../../platform/config/config';
import { badRequest, notFound } from '../../platform/errors/domain-error';
import { IdGenerator } from '../../platform/ids/ids';
import { parseBranchId } from '../../platform/ids/prefixed-ids';
import { outboundUrlProblem } from '../../platform/outbound/outbound-url';
import { ReadModels } from '../../read-models/read-models.service';
import { customHeadersProblem, maskHeaders } from '../../webhooks/custom-headers';
import { agentsQueries, type AgentsQueries } from '../../../projections/agents/queries';
import { agentToolsQueries, type AgentToolsQueries } from '../../../projections/agent-tools/queries';
import type { CreateToolDto, PatchToolDto } from './tool.dto';
import { parametersProblem } from './tool-parameters';

const TOOL_SECRET_PREFIX = 'tsec_';
const DEFAULT_TIMEOUT_MS = 3000;
/** `call_function`'s built-ins (src/runtime/actions/functions.ts): a tool may not take their names. */
const RESERVED_NAMES = new Set(['echo', 'fail']);

const invalid = (field: string, message: string) => badRequest('VALIDATION_ERROR', message, [{ field, message }]);

/** Opens sealed tool headers (an empty seal: none). */
function openHeaders(secret: ServerSecret, headers: SealedToolHeaders): Record<string, string> {
  return headers.sealed ? (JSON.parse(secret.decrypt(headers.sealed)) as Record<string, string>) : {};
}

/**
 * Agent tools on branches (contract §20): commands on the agent stream, answers from the
 * agent-tools read model. Header values and the tool secret are sealed before they reach a
 * command: the log never holds them in the clear.
 */
@Injectable()
export class AgentToolsService {
  private readonly agents: AgentsQueries;
  private readonly tools: AgentToolsQueries;

  constructor(
    private readonly commands: AgentCommands,
    private readonly ids: IdGenerator,
    private readonly secret: ServerSecret,
    @Inject(CONFIG) private readonly config: Config,
    readModels: ReadModels,
  ) {
    this.agents = agentsQueries(readModels);
    this.tools = agentToolsQueries(readModels);
  }

  /** The tool as answers show it: header values never (write-only). */
  view(tool: Tool) {
    return {
      id: tool.id,
      name: tool.name,
      description: tool.description,
      url: tool.url,
      method: tool.method,
      parameters: tool.parameters,
      headers: maskHeaders(openHeaders(this.secret, tool.headers)),
      timeout_ms: tool.timeoutMs,
    };
  }

  async list(agentId: string, rawBranchId: string) {
    const branchId = await this.existingBranch(agentId, rawBranchId);
    return (await this.tools.toolsOf(agentId, branchId)).map((t) => this.view(t));
  }

  async get(agentId: string, rawBranchId: string, toolId: string) {
    const branchId = await this.existingBranch(agentId, rawBranchId);
    const tool = await this.tools.tool(agentId, branchId, toolId);
    if (!tool) throw notFound('TOOL_NOT_FOUND', 'tool not found');
    return this.view(tool);
  }

  /** The first tool of an agent also creates its tool secret, shown in full in this one answer. */
  async add(agentId: string, rawBranchId: string, dto: CreateToolDto, context: CommandContext) {
    const branchId = branchIdOf(rawBranchId);
    const tool: Tool = {
      id: `tool_${this.ids.short(10)}`,
      name: this.checkName(dto.name),
      description: dto.description,
      url: this.checkUrl(dto.url),
      method: 'POST',
      parameters: this.checkParameters(dto.parameters),
      headers: this.sealHeaders(this.checkHeaders(dto.headers ?? {})),
      timeoutMs: dto.timeout_ms ?? DEFAULT_TIMEOUT_MS,
    };
    const signingSecret = newCredential(TOOL_SECRET_PREFIX);
    const { events } = await this.commands.execute(
      agentId,
      { type: 'AddTool', branchId, tool, secret: this.sealSecret(signingSecret) },
      context,
    );
    const issued = events.some((e) => e.type === 'ToolSecretIssued');
    return { ...this.view(tool), ...(issued ? { signing_secret: signingSecret } : {}) };
  }

  async edit(agentId: string, rawBranchId: string, toolId: string, dto: PatchToolDto, context: CommandContext) {
    const changes: Partial<ToolContent> = {
      name: dto.name === undefined ? undefined : this.checkName(dto.name),
      description: dto.description,
      url: dto.url === undefined ? undefined : this.checkUrl(dto.url),
      parameters: dto.parameters === undefined ? undefined : this.checkParameters(dto.parameters),
      headers: dto.headers === undefined ? undefined : this.sealHeaders(this.checkHeaders(dto.headers)),
      timeoutMs: dto.timeout_ms,
    };
    await this.commands.execute(
      agentId,
      { type: 'EditTool', branchId: branchIdOf(rawBranchId), toolId, changes },
      context,
    );
  }

  async remove(agentId: string, rawBranchId: string, toolId: string, context: CommandContext) {
    await this.commands.execute(agentId, { type: 'RemoveTool', branchId: branchIdOf(rawBranchId), toolId }, context);
  }

  /** The agent's tool secret, masked (it is shown in full once: with the first tool, and on rotation). */
  async secretOf(agentId: string) {
    await this.existingAgent(agentId);
    const row = await this.tools.secretOf(agentId);
    if (!row) throw notFound('TOOL_SECRET_NOT_FOUND', 'this agent has no tool secret yet: add a tool or rotate');
    return { signing_secret: `${TOOL_SECRET_PREFIX}…${row.secretLast4}`, issued_at: row.issuedAt };
  }

  /** A new secret, in full this once; calls are signed with it from now on. */
  async rotateSecret(agentId: string, context: CommandContext) {
    const signingSecret = newCredential(TOOL_SECRET_PREFIX);
    await this.commands.execute(agentId, { type: 'RotateToolSecret', secret: this.sealSecret(signingSecret) }, context);
    return { signing_secret: signingSecret };
  }

  private sealSecret(signingSecret: string): SealedToolSecret {
    return { sealedSecret: this.secret.encrypt(signingSecret), secretLast4: signingSecret.slice(-4) };
  }

  private sealHeaders(headers: Record<string, string>): SealedToolHeaders {
    const json = JSON.stringify(headers);
    return { sealed: this.secret.encrypt(json), digest: this.secret.digest(`tool-headers:${json}`) };
  }

  private checkName(name: string): string {
    if (RESERVED_NAMES.has(name)) throw invalid('name', `name ${name} is a built-in function's`);
    return name;
  }

  private checkUrl(url: string): string {
    const problem = outboundUrlProblem(url, { allowLoopback: this.config.webhookAllowHttp });
    if (problem) throw invalid('url', problem);
    return url;
  }

  private checkParameters(parameters: unknown): Record<string, unknown> {
    const problem = parametersProblem(parameters);
    if (problem) throw invalid('parameters', problem);
    return parameters as Record<string, unknown>;
  }

  private checkHeaders(headers: unknown): Record<string, string> {
    const problem = customHeadersProblem(headers);
    if (problem) throw invalid(problem.field, problem.message);
    return headers as Record<string, string>;
  }

  private async existingAgent(agentId: string) {
    const agent = await this.agents.agent(agentId);
    if (!agent || agent.deletedAt) throw notFound('AGENT_NOT_FOUND', 'agent not found');
  }

  private async existingBranch(agentId: string, rawBranchId: string): Promise<string> {
    const branchId = branchIdOf(rawBranchId);
    await this.existingAgent(agentId);
    const branch = await this.agents.branch(agentId, branchId);
    if (!branch || branch.status === 'deleted') throw notFound('BRANCH_NOT_FOUND', 'branch not found');
    return branchId;
  }
}

const branchIdOf = (raw: string) => (raw === MAIN ? MAIN : parseBranchId(raw));
