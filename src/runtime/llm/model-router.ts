import { Inject, Injectable } from '@nestjs/common';
import type { ServedContent } from '../../agents/deployment-content';
import type { LlmRequest } from '../../conversations/conversation.events';
import { CONFIG, type Config } from '../../platform/config/config';
import { LlmEndpoints } from '../../agents/endpoints/llm-endpoints';
import { LlmClient } from './llm-client';

/** The model a turn answers with: a client, none (embedded answers), or one that cannot be reached (recorded as a failed call). */
export type ModelChoice = LlmClient | { unavailable: LlmRequest } | null;

export interface ModelSource {
  clientFor(content: ServedContent): Promise<ModelChoice>;
}

/** When no LLM_BASE_URL sets one, a model call through an operator's endpoint gets this long. */
const DEFAULT_TIMEOUT_MS = 10_000;

/**
 * Picks each turn's model from the settings its deployment carries: the environment's model, else
 * the agent's, else the global LLM_BASE_URL one (or none: the embedded runtime). A model naming an
 * operator's endpoint goes there with that endpoint's key; one naming no endpoint goes to
 * LLM_BASE_URL. An endpoint deleted since the settings were saved is a failed call of the turn,
 * which then falls back to the embedded answer like any failed call.
 */
@Injectable()
export class ModelRouter implements ModelSource {
  private readonly global: LlmClient | null;
  private readonly timeoutMs: number;

  constructor(
    @Inject(CONFIG) private readonly config: Config,
    private readonly endpoints: LlmEndpoints,
  ) {
    this.global = config.llm ? new LlmClient(config.llm) : null;
    this.timeoutMs = config.llm?.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  }

  async clientFor(content: ServedContent): Promise<ModelChoice> {
    const settings = content.settings ?? {};
    const model = settings.environment_models?.[content.environment] ?? settings.model;
    if (!model) return this.global;
    if (model.provider === 'embedded') return null;
    const name = model.model ?? this.config.llm?.model ?? '';
    const tuning = {
      model: name,
      timeoutMs: this.timeoutMs,
      ...(model.temperature !== undefined ? { temperature: model.temperature } : {}),
      ...(model.max_tokens !== undefined ? { maxTokens: model.max_tokens } : {}),
    };
    if (model.endpoint !== undefined) {
      const endpoint = await this.endpoints.resolve(model.endpoint);
      if (!endpoint) return unavailable(name, `no model endpoint is named ${model.endpoint}`);
      return new LlmClient({ baseUrl: endpoint.baseUrl, apiKey: endpoint.apiKey, ...tuning });
    }
    if (!this.config.llm) return unavailable(name, 'the model names no endpoint and LLM_BASE_URL is not set');
    return new LlmClient({ baseUrl: this.config.llm.baseUrl, apiKey: this.config.llm.apiKey, ...tuning });
  }
}

const unavailable = (model: string, error: string): ModelChoice => ({
  unavailable: { model, promptTokens: null, completionTokens: null, latencyMs: 0, status: 'error', error },
});
