import { createHash } from 'node:crypto';
import fs from 'node:fs';
import { Inject, Injectable } from '@nestjs/common';
import type { Tool } from '../../agents/agent-tools.events';
import type { ServedContent } from '../../agents/deployment-content';
import type { ToolCallData } from '../../conversations/conversation.events';
import { ServerSecret } from '../../platform/auth/server-secret';
import { Clock } from '../../platform/clock/clock';
import { CONFIG, type Config } from '../../platform/config/config';
import { isOutboundError, OutboundHttp } from '../../platform/outbound/outbound-http';
import { ReadModels } from '../../read-models/read-models.service';
import { signPayload } from '../../webhooks/signature';
import { agentToolsQueries, type AgentToolsQueries } from '../../../projections/agent-tools/queries';
import { findFunction, type BuiltinFunction, type FunctionResult } from '../actions/functions';
import { toolArguments } from '../../agents/tools/tool-parameters';
import { ToolBreakers } from './tool-breakers';

/** The largest answer a tool may give (its JSON lands in conversation state). */
const MAX_ANSWER_BYTES = 256 * 1024;

/** What `call_function` and a model's tool call may call in one turn, and the record of each tool call. */
export interface TurnFunctions {
  get(name: string): BuiltinFunction | undefined;
  /** every tool call made so far, in order */
  readonly calls: ToolCallData[];
}

/**
 * Calls a deployment's agent tools (contract §20): the arguments as a JSON body, signed like a
 * webhook (`X-Parley-Signature`: hex HMAC-SHA256 with the agent's tool secret over
 * `"{timestamp}.{body}"`), through the outbound-safety client (no internal addresses, no
 * redirects, pinned resolution), within the tool's timeout, behind a per-tool circuit breaker.
 * Never throws: every failure is a function error with a class, and a ToolCalled record.
 */
@Injectable()
export class ToolCaller {
  private readonly outbound: OutboundHttp;
  private readonly breakers: ToolBreakers;
  private readonly tools: AgentToolsQueries;

  constructor(
    private readonly secret: ServerSecret,
    private readonly clock: Clock,
    @Inject(CONFIG) config: Config,
    readModels: ReadModels,
  ) {
    const extraCa = config.tools.testCaFile ? fs.readFileSync(config.tools.testCaFile, 'utf8') : undefined;
    this.outbound = new OutboundHttp({ allowLoopback: config.webhookAllowHttp, extraCa });
    this.breakers = new ToolBreakers(
      { failures: config.tools.breakerFailures, cooldownMs: config.tools.breakerCooldownS * 1000 },
      () => clock.nowMs(),
    );
    this.tools = agentToolsQueries(readModels);
  }

  /** The built-ins, and the deployment's tools by name (a tool never shadows a built-in: names are refused). */
  functionsFor(content: ServedContent): TurnFunctions {
    const byName = new Map((content.tools ?? []).map((t) => [t.name, t] as const));
    const calls: ToolCallData[] = [];
    return {
      calls,
      get: (name) => {
        const builtin = findFunction(name);
        if (builtin) return builtin;
        const tool = byName.get(name);
        if (!tool) return undefined;
        return (args, state) => this.call(content, tool, args, state, calls);
      },
    };
  }

  private async call(
    content: ServedContent,
    tool: Tool,
    args: Readonly<Record<string, unknown>>,
    state: Readonly<Record<string, unknown>>,
    calls: ToolCallData[],
  ): Promise<FunctionResult> {
    const started = performance.now();
    const calledAt = this.clock.nowIso();
    const record = (outcome: Partial<ToolCallData>, result: FunctionResult): FunctionResult => {
      calls.push({
        tool: tool.name,
        toolId: tool.id,
        requestDigest: '',
        status: result.ok ? 'ok' : 'error',
        httpStatus: null,
        latencyMs: Math.round((performance.now() - started) * 10) / 10,
        calledAt,
        ...outcome,
      });
      return result;
    };
    const fail = (error: string, outcome: Partial<ToolCallData> = {}) =>
      record({ ...outcome, error }, { ok: false, error: `${tool.name}: ${error}` });

    const key = `${content.accountId}/${content.agentId}/${tool.name}`;
    const parsed = toolArguments(tool.parameters, args);
    if (!parsed.ok) return fail(`invalid_arguments (${parsed.error})`);
    if (!this.breakers.admit(key)) return fail('breaker_open');

    const body = JSON.stringify(parsed.value);
    const requestDigest = createHash('sha256').update(body).digest('hex');
    const outcome = await this.send(content.agentId, tool, body, state);
    if ('error' in outcome) {
      this.breakers.failed(key);
      return fail(outcome.error, { requestDigest, httpStatus: outcome.status ?? null });
    }
    this.breakers.succeeded(key);
    const result =
      outcome.value !== null && typeof outcome.value === 'object' && !Array.isArray(outcome.value)
        ? (outcome.value as Record<string, unknown>)
        : { value: outcome.value };
    return record(
      { requestDigest, httpStatus: outcome.status },
      { ok: true, result, stored: { value: outcome.value } },
    );
  }

  /** One signed request; a 2xx with a JSON body (or a 204) is an answer, anything else an error class. */
  private async send(
    agentId: string,
    tool: Tool,
    body: string,
    state: Readonly<Record<string, unknown>>,
  ): Promise<{ status: number; value: unknown } | { error: string; status?: number }> {
    const secretRow = await this.tools.secretOf(agentId);
    if (!secretRow) return { error: 'no_tool_secret' };
    let headers: Record<string, string>;
    let signingSecret: string;
    try {
      signingSecret = this.secret.decrypt(secretRow.sealedSecret);
      headers = tool.headers.sealed
        ? (JSON.parse(this.secret.decrypt(tool.headers.sealed)) as Record<string, string>)
        : {};
    } catch {
      return { error: 'sealed_with_another_server_secret' };
    }
    const timestamp = Math.floor(this.clock.nowMs() / 1000);
    const conversationId = typeof state.conversation_id === 'string' ? state.conversation_id : '';
    const response = await this.outbound.send({
      url: tool.url,
      method: tool.method,
      headers: {
        ...headers,
        'content-type': 'application/json',
        accept: 'application/json',
        'user-agent': 'Parley-Tools/1',
        'x-parley-timestamp': String(timestamp),
        'x-parley-signature': signPayload(signingSecret, timestamp, body),
        'x-parley-tool': tool.name,
        ...(conversationId ? { 'x-parley-conversation-id': conversationId } : {}),
      },
      body,
      timeoutMs: tool.timeoutMs,
      maxResponseBytes: MAX_ANSWER_BYTES,
    });
    if (isOutboundError(response)) return { error: response.error };
    if (response.status < 200 || response.status > 299)
      return { error: `http_${response.status}`, status: response.status };
    if (response.status === 204 || response.body.length === 0)
      return response.status === 204 ? { status: 204, value: {} } : { error: 'invalid_json', status: response.status };
    try {
      return { status: response.status, value: JSON.parse(response.body.toString('utf8')) as unknown };
    } catch {
      return { error: 'invalid_json', status: response.status };
    }
  }
}
