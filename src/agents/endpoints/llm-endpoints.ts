import { Injectable } from '@nestjs/common';
import type { CommandContext } from '../../commands/command-context';
import type { CommandHandler } from '../../commands/command-handler';
import { Commands } from '../../commands/commands';
import { ServerSecret } from '../../platform/auth/server-secret';
import { Clock } from '../../platform/clock/clock';
import { LLM_ENDPOINTS_STREAM, type LlmEndpointEvent, type LlmEndpointRecord } from './llm-endpoint.events';
import { llmEndpointsDecider, type LlmEndpointCommand, type LlmEndpointsState } from './llm-endpoints.decider';
import type { AddLlmEndpointDto } from './llm-endpoints.dto';

/** What a model call needs of an endpoint: the key opened, for the Authorization header only. */
export interface ResolvedEndpoint {
  name: string;
  baseUrl: string;
  apiKey: string | null;
}

type WithoutNow<C> = C extends unknown ? Omit<C, 'now'> : never;

/**
 * The operator's list of model endpoints an agent's settings may name. The API key is sealed with
 * the server secret before it reaches the event (so the log never holds it in the clear) and is
 * never returned. Read from the stream on each use: a handful of events, and a key rotated or an
 * endpoint deleted on another process takes effect on the next turn.
 */
@Injectable()
export class LlmEndpoints {
  /** the handler of the endpoints stream, without a cache: every use reads it */
  private readonly endpoints: CommandHandler<LlmEndpointsState, LlmEndpointCommand, LlmEndpointEvent>;

  constructor(
    commands: Commands,
    private readonly clock: Clock,
    private readonly secret: ServerSecret,
  ) {
    this.endpoints = commands.for(llmEndpointsDecider);
  }

  async add(dto: AddLlmEndpointDto, context: CommandContext) {
    const sealedApiKey = dto.api_key !== undefined ? this.secret.encrypt(dto.api_key) : null;
    const { state } = await this.execute(
      { type: 'AddLlmEndpoint', name: dto.name, baseUrl: dto.base_url.replace(/\/+$/, ''), sealedApiKey },
      context,
    );
    return view(state.endpoints.get(dto.name)!);
  }

  async list() {
    const endpoints = await this.all();
    return { endpoints: [...endpoints.values()].sort((a, b) => a.name.localeCompare(b.name)).map(view) };
  }

  async delete(name: string, context: CommandContext): Promise<void> {
    await this.execute({ type: 'DeleteLlmEndpoint', name }, context);
  }

  /** The names that exist now (the settings routes refuse an unknown one). */
  async names(): Promise<Set<string>> {
    return new Set((await this.all()).keys());
  }

  /** The endpoint with its key opened, or null when there is none of that name (any more). */
  async resolve(name: string): Promise<ResolvedEndpoint | null> {
    const record = (await this.all()).get(name);
    if (!record) return null;
    return {
      name,
      baseUrl: record.baseUrl,
      apiKey: record.sealedApiKey === null ? null : this.secret.decrypt(record.sealedApiKey),
    };
  }

  private async all(): Promise<ReadonlyMap<string, LlmEndpointRecord>> {
    return (await this.endpoints.load(LLM_ENDPOINTS_STREAM)).state.endpoints;
  }

  private execute(command: WithoutNow<LlmEndpointCommand>, context: CommandContext) {
    const full = { ...command, now: this.clock.nowIso() } as LlmEndpointCommand;
    return this.endpoints.handle(LLM_ENDPOINTS_STREAM, full, context);
  }
}

const view = (r: LlmEndpointRecord) => ({
  name: r.name,
  base_url: r.baseUrl,
  has_api_key: r.sealedApiKey !== null,
  created_at: r.addedAt,
});
