import path from 'node:path';
import { studioOrigins } from '../http/studio-cors';
import { defaultMaxConnections } from '../limits/open-file-limit';
import { parseCidrList } from '../net/cidr';

/** Everything the process reads from its environment, validated once at start. */
export interface Config {
  port: number;
  host: string;
  dataDir: string;
  eventStore: 'sqlite' | 'eventstoredb' | 'postgres';
  /** The EventStoreDB / KurrentDB connection string; set exactly when eventStore is `eventstoredb`. */
  eventStoreConnectionString: string | null;
  /**
   * The PostgreSQL database of the log (EVENT_STORE_URL, else DATABASE_URL); set exactly when
   * eventStore is `postgres`, which refuses to start without one.
   */
  eventStoreUrl: string | null;
  eventStoreSync: 'full' | 'normal';
  /**
   * How often a SQLite log's head is looked at for what other processes appended (ms); local commits
   * wake readers at once. With PostgreSQL, the fallback should a NOTIFY be missed.
   */
  eventStorePollMs: number;
  /** `postgres`: the platform database (idempotency, timers, checkpoints, registry, outbox) is on PostgreSQL. */
  readModelDb: 'sqlite' | 'postgres';
  /** The PostgreSQL connection URL; set exactly when readModelDb is `postgres`. */
  databaseUrl: string | null;
  /** SQLite read models: `thread` writes batches on a thread beside the event loop, `inline` on it. */
  readModelApply: 'thread' | 'inline';
  /** How far below the event loop the process's helper threads run (nice, 10 by default; 0 leaves them alone): helper-threads.ts. */
  helperThreadNiceness: number;
  operatorToken: string | null;
  testClock: boolean;
  logLevel: 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';
  /** `json` lines for machines (the default), `pretty` lines for a person at a terminal. */
  logFormat: 'json' | 'pretty';
  region: 'us' | 'uk' | 'eu' | 'studio';
  /** With a domain, APIs answer only on their family's host of this region (contract §1). */
  publicDomain: string | null;
  /** Where Studio's built files are (STUDIO_DIR); null: dist/studio beside the app. */
  studioDir: string | null;
  /** Origins whose pages may call the API from a browser (STUDIO_ORIGINS; default Studio's host under PUBLIC_DOMAIN). */
  studioOrigins: string[];
  /** How long a command's response waits for the read models it reads (read-your-writes). */
  readYourWritesTimeoutMs: number;
  /** /readyz answers 503 while a projection is more than this many events behind the log. */
  readyMaxLagEvents: number;
  /** HMAC and encryption key for stored credentials; generated into DATA_DIR when unset. */
  serverSecret: string | null;
  /** Requests per second each API key may make (bursts to twice that); 0 turns it off. */
  rateLimitPerKey: number;
  /** Failed authentications per second a client address may make (decimal), bursts of authFailureBurst; past it 429. 0 turns it off. */
  authFailureRate: number;
  authFailureBurst: number;
  /** A debug chat idle longer than this (platform clock) answers CHAT_TIMEOUT. */
  debugChatTimeoutS: number;
  /** A Chat API conversation idle longer than this (platform clock) is ended (contract §16). */
  chatIdleS: number;
  /** Alert rules are evaluated this often (platform clock). */
  alertEvalIntervalS: number;
  /** Agent test runs pause this long between two cases (0: none), leaving room for live conversations. */
  testRunCasePauseMs: number;
  /** GET /metrics without the operator token. */
  metricsPublic: boolean;
  /** Webhook endpoints may use plain http to a loopback host (local receivers, tests); otherwise https only. */
  webhookAllowHttp: boolean;
  /** The messaging channel (web chat): token lifetime, session idle expiry, per-session limits, the desk's handoff timeout. */
  messaging: MessagingConfig;
  /** Agent tools (contract §20): the per-tool circuit breaker, and a CA the outbound client trusts in tests. */
  tools: ToolsConfig;
  /** An OpenAI-compatible chat endpoint; null: the embedded runtime answers alone. */
  llm: { baseUrl: string; apiKey: string | null; model: string; timeoutMs: number } | null;
  /** An OpenAI-compatible embeddings endpoint; null: semantic search ranks with the embedded default. */
  embeddings: { baseUrl: string; apiKey: string | null; model: string; timeoutMs: number } | null;
  /**
   * Hybrid retrieval (docs/retrieval.md): how long a turn waits for its text's vector by default
   * (an agent's `retrieval.timeout_ms` overrides it), and how long one batch of topics may take
   * to embed when a deployment is made.
   */
  hybridRetrieval: { queryTimeoutMs: number; batchTimeoutMs: number };
  sms: SmsConfig;
  /** Outbound calls (contract §10): which carrier places them, and the account's concurrent-call limit. */
  outboundCalls: {
    carrier: 'simulator' | 'sip';
    maxConcurrentPerAccount: number;
    /** an unanswered call gives up after this long (no-answer) */
    ringTimeoutS: number;
    /** the SIP trunk; set exactly when the carrier is `sip` */
    sip: SipTrunkConfig | null;
  };
  /** The SIP user agent server that answers inbound calls (docs/sip.md); null: off. */
  sipServer: SipServerConfig | null;
  /** Binding external events behind the webhook (src/external-events/bind-pacer.ts). */
  externalEvents: { maxBindDelayMs: number };
  /** What every listener promises under floods (contract §21). */
  edge: EdgeConfig;
}

/** Contract §21: timeouts, connection and byte budgets, and whose X-Forwarded-For is believed. */
export interface EdgeConfig {
  /** HTTP_HEADERS_TIMEOUT_S: complete headers within this, or 408 */
  headersTimeoutMs: number;
  /** HTTP_REQUEST_TIMEOUT_S: a complete request (headers and body) within this, or 408 */
  requestTimeoutMs: number;
  /** HTTP_KEEPALIVE_TIMEOUT_S: an idle keep-alive connection closes after this */
  keepAliveTimeoutMs: number;
  /** HTTP_MAX_CONNECTIONS_PER_ADDRESS: open connections per client address on HTTP/WebSocket and SIP/TCP; 0: no cap */
  maxConnectionsPerAddress: number;
  /** HTTP_MAX_CONNECTIONS: open HTTP connections in all, past which each address gets its fair share; 0: no limit */
  maxConnections: number;
  /** BODY_BYTES_PER_S: request body bytes a second per client address and per credential; 0: no budget */
  bodyBytesPerS: number;
  /** BODY_BYTES_BURST: at least the body limit, so one largest body always fits a full budget */
  bodyBytesBurst: number;
  /** TRUSTED_PROXIES: CIDR blocks whose X-Forwarded-For is believed (and whose connections are not capped) */
  trustedProxies: string[];
}

interface SipTrunkConfig {
  trunkHost: string;
  trunkPort: number;
  holdMs: number;
  transport: 'udp' | 'tcp';
  /** digest credentials for a trunk that challenges (401/407); the password is a secret: never logged */
  username: string | null;
  password: string | null;
}

export interface SipServerConfig {
  /** where it listens, UDP and TCP on the same port (0: any free port, for tests) */
  host: string;
  port: number;
  /** the address put in Via, Contact and SDP (what callers reach); the listen host unless set */
  publicHost: string;
  /** how long an inbound call rings (180) before it is answered */
  answerDelayMs: number;
  /** calls this process carries at once; past it a new INVITE gets 503 (the platform is full) */
  maxCalls: number;
  /** SIP messages per second one source address may send (bursts to twice that); past it they are dropped */
  ratePerSource: number;
  /** how long the far end may hold a call (a=sendonly/inactive) before Parley hangs up */
  holdLimitMs: number;
}

/** SMS (contract §11): the per-project rate of outbound requests and the carrier adapter that sends. */
interface SmsConfig {
  /** POST /v1/outbound-sms per second per project, bursts to twice that; 0 turns it off */
  rateLimitPerProject: number;
  carrier:
    { kind: 'embedded' } | { kind: 'http'; baseUrl: string; accountSid: string; authToken: string; timeoutMs: number };
}

export interface MessagingConfig {
  tokenTtlS: number;
  sessionIdleS: number;
  maxConnectionsPerSession: number;
  /** messages (and handshakes) per second per session, bursts to twice that; 0 turns it off */
  rateLimitPerSession: number;
  handoffTimeoutS: number;
  /** MESSAGING_MAX_DESK_SOCKETS_PER_KEY: desk sockets one key may hold open on this process; the next handshake answers 429 */
  maxDeskSocketsPerKey: number;
  /** service agent turns running at once in this process before new ones get the high-load answer */
  maxConcurrentTurns: number;
}

export class ConfigError extends Error {
  constructor(
    readonly variable: string,
    message: string,
  ) {
    super(`invalid configuration: ${variable} ${message}`);
    this.name = 'ConfigError';
  }
}

type Env = Record<string, string | undefined>;

function oneOf<T extends string>(env: Env, name: string, allowed: readonly T[], fallback: T): T {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = raw.toLowerCase() as T;
  if (!allowed.includes(value))
    throw new ConfigError(name, `must be one of ${allowed.join(', ')} (got ${JSON.stringify(raw)})`);
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

function decimal(env: Env, name: string, fallback: number, min: number, max: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  if (!/^\d+(\.\d+)?$/.test(raw))
    throw new ConfigError(name, `must be a number such as 0.5 (got ${JSON.stringify(raw)})`);
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
  if (!/^https?:\/\/[^\s]+$/.test(baseUrl))
    throw new ConfigError('LLM_BASE_URL', `must be an http(s) URL (got ${JSON.stringify(baseUrl)})`);
  return {
    baseUrl,
    apiKey: env.LLM_API_KEY || null,
    model: env.LLM_MODEL || 'gpt-4o-mini',
    timeoutMs: integer(env, 'LLM_TIMEOUT_MS', 10_000, 100, 300_000),
  };
}

function embeddingsConfig(env: Env): Config['embeddings'] {
  const baseUrl = env.EMBEDDINGS_BASE_URL;
  if (!baseUrl) return null;
  if (!/^https?:\/\/[^\s]+$/.test(baseUrl))
    throw new ConfigError('EMBEDDINGS_BASE_URL', `must be an http(s) URL (got ${JSON.stringify(baseUrl)})`);
  return {
    baseUrl,
    apiKey: env.EMBEDDINGS_API_KEY || null,
    model: env.EMBEDDINGS_MODEL || 'text-embedding-3-small',
    timeoutMs: integer(env, 'EMBEDDINGS_TIMEOUT_MS', 5_000, 100, 300_000),
  };
}

function messagingConfig(env: Env): MessagingConfig {
  return {
    tokenTtlS: integer(env, 'MESSAGING_TOKEN_TTL_S', 3600, 60, 24 * 3600),
    sessionIdleS: integer(env, 'MESSAGING_SESSION_IDLE_S', 600, 10, 24 * 3600),
    maxConnectionsPerSession: integer(env, 'MESSAGING_MAX_CONNECTIONS_PER_SESSION', 10, 1, 1000),
    rateLimitPerSession: integer(env, 'MESSAGING_RATE_LIMIT_PER_SESSION', 10, 0, 100_000),
    handoffTimeoutS: integer(env, 'MESSAGING_HANDOFF_TIMEOUT_S', 120, 1, 24 * 3600),
    maxDeskSocketsPerKey: integer(env, 'MESSAGING_MAX_DESK_SOCKETS_PER_KEY', 5, 1, 1000),
    maxConcurrentTurns: integer(env, 'MESSAGING_MAX_CONCURRENT_TURNS', 500, 1, 1_000_000),
  };
}

function smsConfig(env: Env): SmsConfig {
  const rateLimitPerProject = integer(env, 'SMS_RATE_LIMIT_PER_PROJECT', 10, 0, 100_000);
  if (oneOf(env, 'SMS_CARRIER', ['embedded', 'http'] as const, 'embedded') === 'embedded')
    return { rateLimitPerProject, carrier: { kind: 'embedded' } };
  const baseUrl = env.SMS_CARRIER_URL ?? '';
  if (!/^https?:\/\/[^\s]+$/.test(baseUrl))
    throw new ConfigError(
      'SMS_CARRIER_URL',
      `must be an http(s) URL when SMS_CARRIER=http (got ${JSON.stringify(baseUrl)})`,
    );
  for (const name of ['SMS_CARRIER_ACCOUNT_SID', 'SMS_CARRIER_AUTH_TOKEN']) {
    if (!env[name]) throw new ConfigError(name, 'is required when SMS_CARRIER=http');
  }
  return {
    rateLimitPerProject,
    carrier: {
      kind: 'http',
      baseUrl: baseUrl.replace(/\/+$/, ''),
      accountSid: env.SMS_CARRIER_ACCOUNT_SID!,
      authToken: env.SMS_CARRIER_AUTH_TOKEN!,
      timeoutMs: integer(env, 'SMS_CARRIER_TIMEOUT_MS', 10_000, 100, 120_000),
    },
  };
}

function outboundCallsConfig(env: Env): Config['outboundCalls'] {
  const carrier = oneOf(env, 'OUTBOUND_CARRIER', ['simulator', 'sip'] as const, 'simulator');
  const common = {
    carrier,
    maxConcurrentPerAccount: integer(env, 'OUTBOUND_MAX_CONCURRENT_CALLS', 10, 1, 100_000),
    ringTimeoutS: integer(env, 'OUTBOUND_RING_TIMEOUT_S', 30, 1, 600),
  };
  if (carrier !== 'sip') return { ...common, sip: null };
  const trunk = /^([A-Za-z0-9.-]+|\[[0-9A-Fa-f:.]+\]):(\d{1,5})$/.exec(env.SIP_TRUNK ?? '');
  if (!trunk || Number(trunk[2]) < 1 || Number(trunk[2]) > 65535) {
    throw new ConfigError(
      'SIP_TRUNK',
      `must be host:port of the SIP trunk when OUTBOUND_CARRIER=sip (got ${JSON.stringify(env.SIP_TRUNK ?? '')})`,
    );
  }
  const username = env.SIP_TRUNK_USERNAME || null;
  const password = env.SIP_TRUNK_PASSWORD || null;
  if ((username === null) !== (password === null))
    throw new ConfigError(
      username ? 'SIP_TRUNK_PASSWORD' : 'SIP_TRUNK_USERNAME',
      'must be set together with the other (digest credentials for the trunk)',
    );
  return {
    ...common,
    sip: {
      trunkHost: trunk[1].replace(/^\[|\]$/g, ''),
      trunkPort: Number(trunk[2]),
      holdMs: integer(env, 'SIP_HOLD_MS', 2000, 0, 600_000),
      transport: oneOf(env, 'SIP_TRUNK_TRANSPORT', ['udp', 'tcp'] as const, 'udp'),
      username,
      password,
    },
  };
}

function sipServerConfig(env: Env): SipServerConfig | null {
  if (env.SIP_LISTEN_PORT === undefined || env.SIP_LISTEN_PORT === '') return null;
  const port = integer(env, 'SIP_LISTEN_PORT', 5060, 0, 65535);
  const host = env.SIP_LISTEN_HOST || '127.0.0.1';
  if (!/^[A-Za-z0-9.:-]+$/.test(host))
    throw new ConfigError('SIP_LISTEN_HOST', `must be an address to listen on (got ${JSON.stringify(host)})`);
  const publicHost = env.SIP_PUBLIC_HOST || host;
  if (!/^[A-Za-z0-9.:-]+$/.test(publicHost))
    throw new ConfigError('SIP_PUBLIC_HOST', `must be a host or address (got ${JSON.stringify(publicHost)})`);
  if (publicHost === '0.0.0.0' || publicHost === '::')
    throw new ConfigError(
      'SIP_PUBLIC_HOST',
      'must be set to the address callers reach when SIP_LISTEN_HOST listens on every interface',
    );
  return {
    host,
    port,
    publicHost,
    answerDelayMs: integer(env, 'SIP_ANSWER_DELAY_MS', 0, 0, 60_000),
    maxCalls: integer(env, 'SIP_MAX_CALLS', 200, 1, 100_000),
    ratePerSource: integer(env, 'SIP_RATE_PER_SOURCE', 50, 1, 1_000_000),
    holdLimitMs: integer(env, 'SIP_HOLD_LIMIT_S', 900, 1, 86_400) * 1000,
  };
}

function publicDomain(env: Env): string | null {
  const value = env.PUBLIC_DOMAIN?.toLowerCase();
  if (!value) return null;
  if (!/^([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?$/.test(value)) {
    throw new ConfigError(
      'PUBLIC_DOMAIN',
      `must be a domain name such as example.com (got ${JSON.stringify(env.PUBLIC_DOMAIN)})`,
    );
  }
  return value;
}

function studioOriginsOf(env: Env): string[] {
  const origins = studioOrigins(env.STUDIO_ORIGINS, publicDomain(env));
  if ('invalid' in origins)
    throw new ConfigError(
      'STUDIO_ORIGINS',
      `must be comma-separated origins such as https://studio.example.com (got ${JSON.stringify(origins.invalid)})`,
    );
  return origins;
}

function serverSecret(env: Env): string | null {
  const value = env.SERVER_SECRET || null;
  if (value !== null && value.length < 32) throw new ConfigError('SERVER_SECRET', 'must be at least 32 characters');
  return value;
}

/** The value may hold credentials (user:password@host): errors name the variable, never echo it. */
function eventStoreConnectionString(env: Env, eventStore: Config['eventStore']): string | null {
  if (eventStore !== 'eventstoredb') return null;
  const value = env.EVENTSTORE_CONNECTION_STRING?.trim();
  if (!value)
    throw new ConfigError(
      'EVENTSTORE_CONNECTION_STRING',
      'is required when EVENT_STORE=eventstoredb (e.g. kurrentdb://localhost:2113?tls=false)',
    );
  if (!/^(esdb|kurrentdb|kurrent|kdb)(\+discover)?:\/\/\S+$/i.test(value)) {
    throw new ConfigError(
      'EVENTSTORE_CONNECTION_STRING',
      'must be a connection string such as kurrentdb://host:2113?tls=false (esdb://, kurrentdb://, kurrent://, kdb://, optionally +discover)',
    );
  }
  return value;
}

/** Like the event store's connection string, it may hold a password: errors never echo it. */
function databaseUrl(env: Env, readModelDb: Config['readModelDb']): string | null {
  if (readModelDb !== 'postgres') return null;
  const value = env.DATABASE_URL?.trim();
  if (!value)
    throw new ConfigError(
      'DATABASE_URL',
      'is required when READ_MODEL_DB=postgres (e.g. postgres://parley:secret@127.0.0.1:5432/parley)',
    );
  return postgresUrl('DATABASE_URL', value);
}

/** EVENT_STORE=postgres keeps the log in EVENT_STORE_URL, or in the platform's DATABASE_URL when unset. */
function eventStoreUrl(env: Env, eventStore: Config['eventStore']): string | null {
  if (eventStore !== 'postgres') return null;
  const own = env.EVENT_STORE_URL?.trim();
  if (own) return postgresUrl('EVENT_STORE_URL', own);
  const shared = env.DATABASE_URL?.trim();
  if (shared) return postgresUrl('DATABASE_URL', shared);
  throw new ConfigError(
    'EVENT_STORE_URL',
    'is required when EVENT_STORE=postgres, unless DATABASE_URL is set (e.g. postgres://parley:secret@127.0.0.1:5432/parley)',
  );
}

function postgresUrl(name: string, value: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new ConfigError(name, 'must be a URL such as postgres://user:password@host:5432/database');
  }
  if (url.protocol !== 'postgres:' && url.protocol !== 'postgresql:')
    throw new ConfigError(name, 'must start with postgres:// or postgresql://');
  return value;
}

export function loadConfig(env: Env = process.env): Config {
  const eventStore = oneOf(env, 'EVENT_STORE', ['sqlite', 'eventstoredb', 'postgres'] as const, 'sqlite');
  const readModelDb = oneOf(env, 'READ_MODEL_DB', ['sqlite', 'postgres'] as const, 'sqlite');
  const operatorToken = env.OPERATOR_TOKEN || null;
  if (operatorToken !== null && operatorToken.length < 16) {
    throw new ConfigError('OPERATOR_TOKEN', 'must be at least 16 characters');
  }
  return {
    port: integer(env, 'PORT', 8080, 0, 65535),
    host: env.HOST || '0.0.0.0',
    dataDir: path.resolve(env.DATA_DIR || './data'),
    eventStore,
    eventStoreConnectionString: eventStoreConnectionString(env, eventStore),
    eventStoreUrl: eventStoreUrl(env, eventStore),
    eventStoreSync: oneOf(env, 'EVENT_STORE_SYNC', ['full', 'normal'] as const, 'full'),
    eventStorePollMs: integer(env, 'EVENT_STORE_POLL_MS', 100, 10, 60_000),
    readModelDb,
    databaseUrl: databaseUrl(env, readModelDb),
    readModelApply: oneOf(env, 'READ_MODEL_APPLY', ['thread', 'inline'] as const, 'thread'),
    helperThreadNiceness: integer(env, 'HELPER_THREAD_NICENESS', 10, 0, 19),
    operatorToken,
    testClock: flag(env, 'PARLEY_TEST_CLOCK'),
    logLevel: oneOf(env, 'LOG_LEVEL', ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const, 'info'),
    logFormat: oneOf(env, 'LOG_FORMAT', ['json', 'pretty'] as const, 'json'),
    region: oneOf(env, 'REGION', ['us', 'uk', 'eu', 'studio'] as const, 'us'),
    publicDomain: publicDomain(env),
    studioDir: env.STUDIO_DIR ? path.resolve(env.STUDIO_DIR) : null,
    studioOrigins: studioOriginsOf(env),
    readYourWritesTimeoutMs: integer(env, 'READ_YOUR_WRITES_TIMEOUT_MS', 5000, 1, 60000),
    readyMaxLagEvents: integer(env, 'READY_MAX_LAG_EVENTS', 1000, 0, 1_000_000_000),
    serverSecret: serverSecret(env),
    rateLimitPerKey: integer(env, 'RATE_LIMIT_PER_KEY', 1000, 0, 10_000_000),
    authFailureRate: decimal(env, 'AUTH_FAILURE_RATE', 1, 0, 1_000_000),
    authFailureBurst: integer(env, 'AUTH_FAILURE_BURST', 20, 1, 1_000_000),
    debugChatTimeoutS: integer(env, 'DEBUG_CHAT_TIMEOUT_S', 1800, 1, 30 * 24 * 3600),
    chatIdleS: integer(env, 'CHAT_IDLE_S', 1800, 1, 30 * 24 * 3600),
    alertEvalIntervalS: integer(env, 'ALERT_EVAL_INTERVAL_S', 60, 1, 24 * 3600),
    testRunCasePauseMs: integer(env, 'TEST_RUN_CASE_PAUSE_MS', 0, 0, 60_000),
    metricsPublic: flag(env, 'METRICS_PUBLIC'),
    webhookAllowHttp: flag(env, 'WEBHOOK_ALLOW_HTTP'),
    messaging: messagingConfig(env),
    llm: llmConfig(env),
    tools: toolsConfig(env),
    embeddings: embeddingsConfig(env),
    hybridRetrieval: {
      queryTimeoutMs: integer(env, 'RETRIEVAL_EMBEDDING_TIMEOUT_MS', 1000, 50, 10_000),
      batchTimeoutMs: integer(env, 'RETRIEVAL_EMBEDDING_BATCH_TIMEOUT_MS', 30_000, 100, 300_000),
    },
    outboundCalls: outboundCallsConfig(env),
    sipServer: sipServerConfig(env),
    sms: smsConfig(env),
    externalEvents: {
      maxBindDelayMs: integer(env, 'EXTERNAL_EVENTS_MAX_BIND_DELAY_MS', 30_000, 0, 3_600_000),
    },
    edge: edgeConfig(env),
  };
}

/** The largest request body any route takes (contract §2); bodies past it answer 413. */
export const BODY_LIMIT_BYTES = 1024 * 1024;

function edgeConfig(env: Env): EdgeConfig {
  const seconds = (name: string, fallback: number) => Math.round(decimal(env, name, fallback, 0.1, 3600) * 1000);
  const headersTimeoutMs = seconds('HTTP_HEADERS_TIMEOUT_S', 10);
  const requestTimeoutMs = seconds('HTTP_REQUEST_TIMEOUT_S', 30);
  // Node refuses a header timeout longer than the request's: the headers are part of the request
  if (headersTimeoutMs > requestTimeoutMs)
    throw new ConfigError('HTTP_HEADERS_TIMEOUT_S', 'must not be longer than HTTP_REQUEST_TIMEOUT_S');
  const bodyBytesBurst = integer(env, 'BODY_BYTES_BURST', BODY_LIMIT_BYTES, BODY_LIMIT_BYTES, 2 ** 40);
  const proxies = parseCidrList(env.TRUSTED_PROXIES);
  if ('invalid' in proxies)
    throw new ConfigError(
      'TRUSTED_PROXIES',
      `must be comma-separated addresses or CIDR blocks such as 10.0.0.0/8 (got ${JSON.stringify(proxies.invalid)})`,
    );
  return {
    headersTimeoutMs,
    requestTimeoutMs,
    keepAliveTimeoutMs: seconds('HTTP_KEEPALIVE_TIMEOUT_S', 5),
    maxConnectionsPerAddress: integer(env, 'HTTP_MAX_CONNECTIONS_PER_ADDRESS', 256, 0, 1_000_000),
    maxConnections: integer(env, 'HTTP_MAX_CONNECTIONS', defaultMaxConnections(), 0, 10_000_000),
    bodyBytesPerS: integer(env, 'BODY_BYTES_PER_S', BODY_LIMIT_BYTES / 2, 0, 2 ** 40),
    bodyBytesBurst,
    trustedProxies: (env.TRUSTED_PROXIES ?? '')
      .split(',')
      .map((entry) => entry.trim())
      .filter(Boolean),
  };
}

interface ToolsConfig {
  /** consecutive failed calls of one tool that open its breaker */
  breakerFailures: number;
  /** how long an open breaker refuses calls before it lets one through (half-open) */
  breakerCooldownS: number;
  /**
   * OUTBOUND_TEST_CA_FILE: a PEM certificate tool calls trust besides the system's, so tests can
   * stand up a local HTTPS receiver. Read only with WEBHOOK_ALLOW_HTTP=1 (the loopback test
   * allowance): a production process never trusts it.
   */
  testCaFile: string | null;
}

function toolsConfig(env: Env): ToolsConfig {
  return {
    breakerFailures: integer(env, 'TOOL_BREAKER_FAILURES', 5, 1, 1000),
    breakerCooldownS: integer(env, 'TOOL_BREAKER_COOLDOWN_S', 30, 1, 3600),
    testCaFile:
      flag(env, 'WEBHOOK_ALLOW_HTTP') && env.OUTBOUND_TEST_CA_FILE ? path.resolve(env.OUTBOUND_TEST_CA_FILE) : null,
  };
}

export const CONFIG = Symbol('Config');
