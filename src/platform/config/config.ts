import path from 'node:path';

/** Everything the process reads from its environment, validated once at start. */
export interface Config {
  port: number;
  host: string;
  dataDir: string;
  eventStore: 'sqlite';
  eventStoreSync: 'full' | 'normal';
  readModelDb: 'sqlite';
  operatorToken: string | null;
  testClock: boolean;
  logLevel: 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';
  region: 'us' | 'uk' | 'eu' | 'studio';
  /** With a domain, APIs answer only on their family's host of this region (contract §1). */
  publicDomain: string | null;
  /** How long a command's response waits for the read models it reads (read-your-writes). */
  readYourWritesTimeoutMs: number;
  /** /readyz answers 503 while a projection is more than this many events behind the log. */
  readyMaxLagEvents: number;
  /** HMAC and encryption key for stored credentials; generated into DATA_DIR when unset. */
  serverSecret: string | null;
  /** Requests per second each API key may make (bursts to twice that); 0 turns it off. */
  rateLimitPerKey: number;
  /** A debug chat idle longer than this (platform clock) answers CHAT_TIMEOUT. */
  debugChatTimeoutS: number;
  /** Alert rules are evaluated this often (platform clock). */
  alertEvalIntervalS: number;
  /** GET /metrics without the operator token. */
  metricsPublic: boolean;
  /** Webhook endpoints may use plain http to a loopback host (local receivers, tests); otherwise https only. */
  webhookAllowHttp: boolean;
  /** An OpenAI-compatible chat endpoint; null: the embedded runtime answers alone. */
  llm: { baseUrl: string; apiKey: string | null; model: string; timeoutMs: number } | null;
  /** An OpenAI-compatible embeddings endpoint; null: semantic search ranks with the embedded default. */
  embeddings: { baseUrl: string; apiKey: string | null; model: string; timeoutMs: number } | null;
}

export class ConfigError extends Error {
  constructor(readonly variable: string, message: string) {
    super(`invalid configuration: ${variable} ${message}`);
    this.name = 'ConfigError';
  }
}

type Env = Record<string, string | undefined>;

function oneOf<T extends string>(env: Env, name: string, allowed: readonly T[], fallback: T): T {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = raw.toLowerCase() as T;
  if (!allowed.includes(value)) throw new ConfigError(name, `must be one of ${allowed.join(', ')} (got ${JSON.stringify(raw)})`);
  return value;
}

function integer(env: Env, name: string, fallback: number, min: number, max: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  if (!/^\d+$/.test(raw)) throw new ConfigError(name, `must be an integer (got ${JSON.stringify(raw)})`);
  const value = Number(raw);
  if (value < min || value > max) throw new ConfigError(name, `must be between ${min} and ${max} (got ${value})`);
  return value;
}

function flag(env: Env, name: string): boolean {
  return oneOf(env, name, ['0', '1', 'true', 'false'] as const, '0') === '1' || env[name]?.toLowerCase() === 'true';
}

function llmConfig(env: Env): Config['llm'] {
  const baseUrl = env.LLM_BASE_URL;
  if (!baseUrl) return null;
  if (!/^https?:\/\/[^\s]+$/.test(baseUrl)) throw new ConfigError('LLM_BASE_URL', `must be an http(s) URL (got ${JSON.stringify(baseUrl)})`);
  return { baseUrl, apiKey: env.LLM_API_KEY || null, model: env.LLM_MODEL || 'gpt-4o-mini', timeoutMs: integer(env, 'LLM_TIMEOUT_MS', 10_000, 100, 300_000) };
}

function embeddingsConfig(env: Env): Config['embeddings'] {
  const baseUrl = env.EMBEDDINGS_BASE_URL;
  if (!baseUrl) return null;
  if (!/^https?:\/\/[^\s]+$/.test(baseUrl)) throw new ConfigError('EMBEDDINGS_BASE_URL', `must be an http(s) URL (got ${JSON.stringify(baseUrl)})`);
  return { baseUrl, apiKey: env.EMBEDDINGS_API_KEY || null, model: env.EMBEDDINGS_MODEL || 'text-embedding-3-small', timeoutMs: integer(env, 'EMBEDDINGS_TIMEOUT_MS', 5_000, 100, 300_000) };
}

function publicDomain(env: Env): string | null {
  const value = env.PUBLIC_DOMAIN?.toLowerCase();
  if (!value) return null;
  if (!/^([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?$/.test(value)) {
    throw new ConfigError('PUBLIC_DOMAIN', `must be a domain name such as example.com (got ${JSON.stringify(env.PUBLIC_DOMAIN)})`);
  }
  return value;
}

function serverSecret(env: Env): string | null {
  const value = env.SERVER_SECRET || null;
  if (value !== null && value.length < 32) throw new ConfigError('SERVER_SECRET', 'must be at least 32 characters');
  return value;
}

export function loadConfig(env: Env = process.env): Config {
  const eventStore = oneOf(env, 'EVENT_STORE', ['sqlite', 'eventstoredb'] as const, 'sqlite');
  if (eventStore === 'eventstoredb') {
    throw new ConfigError('EVENT_STORE', 'eventstoredb: this build has no EventStoreDB adapter yet; use sqlite');
  }
  const readModelDb = oneOf(env, 'READ_MODEL_DB', ['sqlite', 'postgres'] as const, 'sqlite');
  if (readModelDb === 'postgres') {
    throw new ConfigError('READ_MODEL_DB', 'postgres: this build has no PostgreSQL read models yet; use sqlite');
  }
  const operatorToken = env.OPERATOR_TOKEN || null;
  if (operatorToken !== null && operatorToken.length < 16) {
    throw new ConfigError('OPERATOR_TOKEN', 'must be at least 16 characters');
  }
  return {
    port: integer(env, 'PORT', 8080, 0, 65535),
    host: env.HOST || '0.0.0.0',
    dataDir: path.resolve(env.DATA_DIR || './data'),
    eventStore,
    eventStoreSync: oneOf(env, 'EVENT_STORE_SYNC', ['full', 'normal'] as const, 'full'),
    readModelDb,
    operatorToken,
    testClock: flag(env, 'PARLEY_TEST_CLOCK'),
    logLevel: oneOf(env, 'LOG_LEVEL', ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const, 'info'),
    region: oneOf(env, 'REGION', ['us', 'uk', 'eu', 'studio'] as const, 'us'),
    publicDomain: publicDomain(env),
    readYourWritesTimeoutMs: integer(env, 'READ_YOUR_WRITES_TIMEOUT_MS', 5000, 1, 60000),
    readyMaxLagEvents: integer(env, 'READY_MAX_LAG_EVENTS', 1000, 0, 1_000_000_000),
    serverSecret: serverSecret(env),
    rateLimitPerKey: integer(env, 'RATE_LIMIT_PER_KEY', 1000, 0, 10_000_000),
    debugChatTimeoutS: integer(env, 'DEBUG_CHAT_TIMEOUT_S', 1800, 1, 30 * 24 * 3600),
    alertEvalIntervalS: integer(env, 'ALERT_EVAL_INTERVAL_S', 60, 1, 24 * 3600),
    metricsPublic: flag(env, 'METRICS_PUBLIC'),
    webhookAllowHttp: flag(env, 'WEBHOOK_ALLOW_HTTP'),
    llm: llmConfig(env),
    embeddings: embeddingsConfig(env),
  };
}

export const CONFIG = Symbol('Config');
