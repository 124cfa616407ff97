import type { LlmRequest } from '../../conversations/conversation.events';

export interface LlmConfig {
  baseUrl: string;
  apiKey: string | null;
  model: string;
  timeoutMs: number;
}

export interface ChatMessage {
  role: 'system' | 'user' | 'assistant' | 'tool';
  content: string;
  /** an assistant message that called tools (echoed back with their results: one round trip) */
  tool_calls?: Array<{ id: string; type: 'function'; function: { name: string; arguments: string } }>;
  /** a `tool` message: the call it answers */
  tool_call_id?: string;
}

export interface ToolSpec {
  name: string;
  description: string;
  /** argument names (each a string), or a JSON Schema object (agent tools, contract §20) */
  parameters: string[] | Record<string, unknown>;
}

export interface Completion {
  text: string;
  toolCalls: Array<{ id: string; name: string; args: Record<string, string> }>;
  request: LlmRequest;
}

interface ChatCompletionResponse {
  choices?: Array<{
    message?: {
      content?: string | null;
      tool_calls?: Array<{ id?: string; function?: { name?: string; arguments?: string } }>;
    };
  }>;
  usage?: { prompt_tokens?: number; completion_tokens?: number };
}

/**
 * An OpenAI-compatible `/v1/chat/completions` client (the hosted model is a boundary this project
 * cannot run; tests stand up a small server speaking the protocol). Never throws: a failure or a
 * timeout comes back as a completion with an error request, and the caller falls back. The API key
 * goes in the Authorization header only; it is never recorded.
 */
export class LlmClient {
  constructor(private readonly config: LlmConfig) {}

  get model(): string {
    return this.config.model;
  }

  async complete(messages: ChatMessage[], tools: ToolSpec[]): Promise<Completion | { error: LlmRequest }> {
    const started = performance.now();
    const request = (status: LlmRequest['status'], extra: Partial<LlmRequest> = {}): LlmRequest => ({
      model: this.config.model,
      promptTokens: null,
      completionTokens: null,
      latencyMs: Math.round((performance.now() - started) * 10) / 10,
      status,
      ...extra,
    });
    try {
      const response = await fetch(`${this.config.baseUrl.replace(/\/$/, '')}/v1/chat/completions`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          ...(this.config.apiKey ? { authorization: `Bearer ${this.config.apiKey}` } : {}),
        },
        body: JSON.stringify({
          model: this.config.model,
          messages,
          ...(tools.length
            ? {
                tools: tools.map((t) => ({
                  type: 'function',
                  function: {
                    name: t.name,
                    description: t.description,
                    parameters: Array.isArray(t.parameters)
                      ? {
                          type: 'object',
                          properties: Object.fromEntries(t.parameters.map((p) => [p, { type: 'string' }])),
                        }
                      : t.parameters,
                  },
                })),
              }
            : {}),
        }),
        signal: AbortSignal.timeout(this.config.timeoutMs),
      });
      if (!response.ok) return { error: request('error', { error: `HTTP ${response.status}` }) };
      const body = (await response.json()) as ChatCompletionResponse;
      const message = body.choices?.[0]?.message;
      if (!message) return { error: request('error', { error: 'no choice in the response' }) };
      const toolCalls = (message.tool_calls ?? []).flatMap((call, i) => {
        const name = call.function?.name;
        if (!name) return [];
        const id = typeof call.id === 'string' && call.id ? call.id : `call_${i}`;
        return [{ id, name, args: stringArgs(call.function?.arguments) }];
      });
      return {
        text: message.content ?? '',
        toolCalls,
        request: request('ok', {
          promptTokens: body.usage?.prompt_tokens ?? null,
          completionTokens: body.usage?.completion_tokens ?? null,
        }),
      };
    } catch (error) {
      // fetch rejects with a DOMException named TimeoutError when the signal fires
      const name = (error as { name?: unknown })?.name;
      const timedOut = name === 'TimeoutError' || name === 'AbortError';
      return {
        error: request(timedOut ? 'timeout' : 'error', {
          error: timedOut ? `no answer within ${this.config.timeoutMs} ms` : String((error as Error)?.message ?? error),
        }),
      };
    }
  }
}

function stringArgs(raw: string | undefined): Record<string, string> {
  try {
    const parsed = JSON.parse(raw ?? '{}') as Record<string, unknown>;
    return Object.fromEntries(
      Object.entries(parsed).map(([k, v]) => [k, typeof v === 'string' ? v : JSON.stringify(v)]),
    );
  } catch {
    return {};
  }
}
