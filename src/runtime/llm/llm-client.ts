import type { LlmRequest } from '../../conversations/conversation.events';
import { readSse } from './sse';

export interface LlmConfig {
  baseUrl: string;
  apiKey: string | null;
  model: string;
  timeoutMs: number;
  /** sent only when set (the agent's model settings) */
  temperature?: number;
  maxTokens?: number;
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
  /** ms from the request to the first piece of text the model sent; null when it sent none */
  firstTokenMs: number | null;
}

/** A piece of the answer, as the model sends it. */
export type OnDelta = (text: string) => void;

/** What else a request may ask of the model. */
interface CompletionOptions {
  /** `response_format` as the protocol spells it, e.g. `{type: 'json_schema', json_schema: {...}}` (post-call analysis) */
  responseFormat?: Record<string, unknown>;
}

interface ChatMessageBody {
  content?: string | null;
  tool_calls?: Array<{ id?: string; function?: { name?: string; arguments?: string } }>;
}

interface ChatCompletionResponse {
  choices?: Array<{ message?: ChatMessageBody }>;
  usage?: { prompt_tokens?: number; completion_tokens?: number };
}

interface ChatCompletionChunk {
  choices?: Array<{
    delta?: {
      content?: string | null;
      tool_calls?: Array<{ index?: number; id?: string; function?: { name?: string; arguments?: string } }>;
    };
  }>;
  usage?: { prompt_tokens?: number; completion_tokens?: number } | null;
}

/**
 * An OpenAI-compatible `/v1/chat/completions` client (the hosted model is a boundary this project
 * cannot run; tests stand up a small server speaking the protocol). It asks for a stream
 * (`stream: true`, server-sent events) and hands each piece of text to `onDelta` as it arrives, so
 * a channel can show the answer while the model writes it; a server that answers with one JSON
 * body instead is read whole. Never throws: a failure or a timeout comes back as an error request,
 * and the caller falls back. The API key goes in the Authorization header only; it is never recorded.
 */
export class LlmClient {
  constructor(private readonly config: LlmConfig) {}

  get model(): string {
    return this.config.model;
  }

  async complete(
    messages: ChatMessage[],
    tools: ToolSpec[],
    onDelta?: OnDelta,
    options: CompletionOptions = {},
  ): Promise<Completion | { error: LlmRequest }> {
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
          accept: 'text/event-stream, application/json',
          ...(this.config.apiKey ? { authorization: `Bearer ${this.config.apiKey}` } : {}),
        },
        body: JSON.stringify(this.body(messages, tools, options)),
        signal: AbortSignal.timeout(this.config.timeoutMs),
      });
      if (!response.ok) return { error: request('error', { error: `HTTP ${response.status}` }) };
      const streamed = (response.headers.get('content-type') ?? '').includes('text/event-stream');
      const answer = streamed ? await readStream(response, started, onDelta) : await readWhole(response);
      if ('error' in answer) return { error: request('error', { error: answer.error }) };
      return {
        text: answer.text,
        toolCalls: answer.toolCalls,
        firstTokenMs: answer.firstTokenMs,
        request: request('ok', { promptTokens: answer.promptTokens, completionTokens: answer.completionTokens }),
      };
    } catch (error) {
      // fetch (and a body read) rejects with a DOMException named TimeoutError when the signal fires
      const name = (error as { name?: unknown })?.name;
      const timedOut = name === 'TimeoutError' || name === 'AbortError';
      return {
        error: request(timedOut ? 'timeout' : 'error', {
          error: timedOut ? `no answer within ${this.config.timeoutMs} ms` : String((error as Error)?.message ?? error),
        }),
      };
    }
  }

  private body(messages: ChatMessage[], tools: ToolSpec[], options: CompletionOptions) {
    return {
      model: this.config.model,
      messages,
      stream: true,
      stream_options: { include_usage: true },
      ...(options.responseFormat ? { response_format: options.responseFormat } : {}),
      ...(this.config.temperature !== undefined ? { temperature: this.config.temperature } : {}),
      ...(this.config.maxTokens !== undefined ? { max_tokens: this.config.maxTokens } : {}),
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
    };
  }
}

interface Answer {
  text: string;
  toolCalls: Completion['toolCalls'];
  promptTokens: number | null;
  completionTokens: number | null;
  firstTokenMs: number | null;
}

async function readWhole(response: Response): Promise<Answer | { error: string }> {
  const body = (await response.json()) as ChatCompletionResponse;
  const message = body.choices?.[0]?.message;
  if (!message) return { error: 'no choice in the response' };
  return {
    text: message.content ?? '',
    toolCalls: toolCallsOf(message.tool_calls ?? []),
    promptTokens: body.usage?.prompt_tokens ?? null,
    completionTokens: body.usage?.completion_tokens ?? null,
    firstTokenMs: null,
  };
}

/** The chunks of a streamed answer: text deltas joined, tool calls assembled by index, usage from the last. */
async function readStream(response: Response, started: number, onDelta?: OnDelta): Promise<Answer | { error: string }> {
  let text = '';
  let firstTokenMs: number | null = null;
  let usage: ChatCompletionChunk['usage'] = null;
  let sawChoice = false;
  const calls = new Map<number, { id: string; name: string; arguments: string }>();
  for await (const data of readSse(response)) {
    if (data === '[DONE]') break;
    let chunk: ChatCompletionChunk;
    try {
      chunk = JSON.parse(data) as ChatCompletionChunk;
    } catch {
      return { error: 'a stream chunk is not JSON' };
    }
    if (chunk.usage) usage = chunk.usage;
    const delta = chunk.choices?.[0]?.delta;
    if (!delta) continue;
    sawChoice = true;
    if (typeof delta.content === 'string' && delta.content.length > 0) {
      firstTokenMs ??= Math.round((performance.now() - started) * 10) / 10;
      text += delta.content;
      onDelta?.(delta.content);
    }
    for (const call of delta.tool_calls ?? []) {
      const index = call.index ?? 0;
      const current = calls.get(index) ?? { id: '', name: '', arguments: '' };
      calls.set(index, {
        id: current.id || (call.id ?? ''),
        name: current.name + (call.function?.name ?? ''),
        arguments: current.arguments + (call.function?.arguments ?? ''),
      });
    }
  }
  if (!sawChoice) return { error: 'no choice in the response' };
  return {
    text,
    toolCalls: toolCallsOf(
      [...calls.entries()]
        .sort(([a], [b]) => a - b)
        .map(([, f]) => ({ id: f.id, function: { name: f.name, arguments: f.arguments } })),
    ),
    promptTokens: usage?.prompt_tokens ?? null,
    completionTokens: usage?.completion_tokens ?? null,
    firstTokenMs,
  };
}

function toolCallsOf(calls: NonNullable<ChatMessageBody['tool_calls']>): Completion['toolCalls'] {
  return calls.flatMap((call, i) => {
    const name = call.function?.name;
    if (!name) return [];
    const id = typeof call.id === 'string' && call.id ? call.id : `call_${i}`;
    return [{ id, name, args: stringArgs(call.function?.arguments) }];
  });
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
