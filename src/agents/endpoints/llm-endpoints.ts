import { Inject, Injectable } from '@nestjs/common';
import type { CommandContext } from '../../commands/command-context';
import { handleCommand, load } from '../../commands/command-handler';
import { EVENT_STORE, type EventStore } from '../../event-store/event-store.port';
import { ServerSecret } from '../../platform/auth/server-secret';
import { Clock } from '../../platform/clock/clock';
import { LLM_ENDPOINTS_STREAM, type LlmEndpointRecord } from './llm-endpoint.events';
import { llmEndpointsDecider, type LlmEndpointCommand } from './llm-endpoints.decider';
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
  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    private readonly clock: Clock,
    private readonly secret: ServerSecret,
  ) {}

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
    return (await load(this.store, LLM_ENDPOINTS_STREAM, llmEndpointsDecider)).state.endpoints;
  }

  private execute(command: WithoutNow<LlmEndpointCommand>, context: CommandContext) {
    const full = { ...command, now: this.clock.nowIso() } as LlmEndpointCommand;
    return handleCommand(this.store, this.clock, LLM_ENDPOINTS_STREAM, llmEndpointsDecider, full, context);
  }
}

const view = (r: LlmEndpointRecord) => ({
  name: r.name,
  base_url: r.baseUrl,
  has_api_key: r.sealedApiKey !== null,
  created_at: r.addedAt,
});
