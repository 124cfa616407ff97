import fs from 'node:fs';
import type { Type } from '@nestjs/common';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import pino from 'pino';
import { createApp } from '../../src/app.factory';
import { EVENT_STORE, type EventStore } from '../../src/event-store/event-store.port';
import { comparePositions } from '../../src/event-store/position';
import { loadConfig } from '../../src/platform/config/config';
import { ProcessManagers } from '../../src/process-managers/process-managers';
import { ReadModels } from '../../src/read-models/read-models.service';
import type { VoiceSeam } from '../../src/sip/voice-seam.module';
import { withDeadline } from './measure';

/** How long settled() waits before it fails, naming what had not caught up (BENCH_SETTLE_DEADLINE_MS overrides). */
const SETTLE_DEADLINE_MS = Number(process.env.BENCH_SETTLE_DEADLINE_MS) || 10 * 60_000;

export interface BenchApp {
  url: string;
  operatorToken: string;
  /** the Nest application itself (a case that needs one of its parts, e.g. the SIP server's port) */
  nest: NestFastifyApplication;
  close(): Promise<void>;
  /** Resolves once every read model and process manager has reached the log's head (startup catch-up done). */
  settled(): Promise<void>;
  /** POST/GET JSON with the given headers; throws on a non-2xx answer. */
  call<T = unknown>(method: string, route: string, headers: Record<string, string>, body?: unknown): Promise<T>;
}

/**
 * The real app on loopback, in its own data dir, logging nothing, with no per-key rate limit.
 * READ_MODEL_APPLY in the bench's environment passes through (compare `inline` with the default).
 */
export async function startBenchApp(
  dir: string,
  env: Record<string, string> = {},
  extraControllers: Type[] = [],
  voice: VoiceSeam = {},
): Promise<BenchApp> {
  fs.mkdirSync(dir, { recursive: true });
  const operatorToken = 'bench-operator-token-0123456789';
  const config = loadConfig({
    DATA_DIR: dir,
    OPERATOR_TOKEN: operatorToken,
    // throughput from one client address: the per-caller limits would measure themselves
    RATE_LIMIT_PER_KEY: '0',
    BODY_BYTES_PER_S: '0',
    HTTP_MAX_CONNECTIONS_PER_ADDRESS: '0',
    // load generators keep connections idle between phases: Fastify's own 72 s, not the product's 5 s
    HTTP_KEEPALIVE_TIMEOUT_S: '72',
    LOG_LEVEL: 'silent',
    ...passedThrough(),
    ...env,
  });
  const app = await createApp(config, pino({ level: 'silent' }), undefined, extraControllers, voice);
  await app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = app.getHttpServer().address() as { port: number };
  const url = `http://127.0.0.1:${port}`;
  return {
    url,
    operatorToken,
    nest: app,
    close: () => app.close(),
    async settled() {
      const head = await app.get<EventStore>(EVENT_STORE).headPosition();
      const readModels = app.get(ReadModels);
      const managers = app.get(ProcessManagers);
      // Bounded: a run once sat 17 minutes here without saying which reader had stopped.
      const behind = async () => [
        ...(await readModels.status())
          .filter((s) => (s.lagEvents ?? 0) > 0)
          .map((s) => `read model ${s.name} (${s.state}, ${s.lagEvents} events behind)`),
        ...managers
          .status()
          .filter((m) => comparePositions(m.position, head) < 0)
          .map((m) => `process manager ${m.name} (at ${m.position}${m.error ? `, error: ${m.error}` : ''})`),
      ];
      let waiting: string[] = [];
      let expired = false;
      const settle = async () => {
        await readModels
          .waitFor(
            head,
            (await readModels.status()).map((s) => s.name),
          )
          .catch(() => undefined);
        while (!expired && (waiting = await behind()).length > 0)
          await new Promise((resolve) => setTimeout(resolve, 100));
      };
      await withDeadline(settle(), SETTLE_DEADLINE_MS, `the app settling at head ${head}`).catch((error: Error) => {
        expired = true;
        throw new Error(`${error.message}; still behind: ${waiting.join(', ') || "the read models' catch-up"}`);
      });
    },
    async call(method, route, headers, body) {
      const response = await fetch(`${url}${route}`, {
        method,
        headers: { ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      const text = await response.text();
      if (!response.ok) throw new Error(`${method} ${route}: ${response.status} ${text}`);
      return (text ? JSON.parse(text) : null) as never;
    },
  };
}

/** An account, a key with every permission, ready to drive the APIs. */
export async function seedAccount(app: BenchApp): Promise<{ accountId: string; key: string }> {
  const op = { 'x-operator-token': app.operatorToken };
  const account = await app.call<{ accountId: string }>('POST', '/admin/v1/accounts', op, {
    name: 'bench',
    region: 'us',
  });
  const expiresAt = new Date(Date.now() + 300 * 24 * 3600 * 1000).toISOString();
  const key = await app.call<{ key: string }>('POST', `/admin/v1/accounts/${account.accountId}/api-keys`, op, {
    name: 'bench',
    agents: 'all',
    permissions: [
      'agents',
      'keys',
      'conversations',
      'handoff',
      'external_events',
      'alerts',
      'outbound_calling',
      'sms',
      'desk',
      'chat',
    ],
    expiresAt,
  });
  return { accountId: account.accountId, key: key.key };
}

/** Settings a bench run may choose from its environment, to compare two of them on one build. */
const PASSED_THROUGH = ['READ_MODEL_APPLY', 'HELPER_THREAD_NICENESS'];

function passedThrough(): Record<string, string> {
  return Object.fromEntries(
    PASSED_THROUGH.filter((name) => process.env[name]).map((name) => [name, process.env[name]!]),
  );
}
