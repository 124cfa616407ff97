import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Type } from '@nestjs/common';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import pino from 'pino';
import { createApp } from '../../src/app.factory';
import { loadConfig } from '../../src/platform/config/config';
import type { VoiceSeam } from '../../src/sip/voice-seam.module';
import { appDatabaseEnv, dropAppDatabase } from './app-database';
import { SLOW_MACHINE_ENV } from '../support/patience';
import type { Json } from './json';

/**
 * Every test client calls from 127.0.0.1, and many suites send hundreds of wrong credentials on
 * purpose, or megabytes of bodies: the failed-login throttle and the body byte budget (a bucket
 * per client address) are off unless a test turns them on (test/auth-throttle.e2e.spec.ts,
 * test/edge/byte-budget.e2e.spec.ts do).
 */
const TEST_DEFAULTS: Record<string, string> = { AUTH_FAILURE_RATE: '0', BODY_BYTES_PER_S: '0' };

export interface TestApp {
  app: NestFastifyApplication;
  url: string;
  dataDir: string;
  operatorToken: string;
  close(): Promise<void>;
}

/**
 * The whole app on a real loopback port, with its own data directory; on a READ_MODEL_DB=postgres
 * run, with a PostgreSQL database of its own too (app-database.ts), unless `env` chooses.
 */
export async function startTestApp(
  env: Record<string, string> = {},
  dataDir?: string,
  extraControllers: Type[] = [],
  voice: VoiceSeam = {},
): Promise<TestApp> {
  const dir = dataDir ?? fs.mkdtempSync(path.join(os.tmpdir(), 'parley-e2e-'));
  const operatorToken = env.OPERATOR_TOKEN ?? 'test-operator-token-0123456789';
  const database = await appDatabaseEnv(dir, env);
  const config = loadConfig({
    DATA_DIR: dir,
    OPERATOR_TOKEN: operatorToken,
    PORT: '0',
    HOST: '127.0.0.1',
    ...TEST_DEFAULTS,
    ...SLOW_MACHINE_ENV,
    ...database,
    ...env,
  });
  const app = await createApp(
    config,
    pino({ level: process.env.TEST_LOG_LEVEL ?? 'silent' }),
    undefined,
    extraControllers,
    voice,
  );
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.getHttpServer().address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    app,
    url: `http://127.0.0.1:${port}`,
    dataDir: dir,
    operatorToken,
    close: async () => {
      await app.close();
      if (dataDir) return;
      fs.rmSync(dir, { recursive: true, force: true });
      await dropAppDatabase(dir, env);
    },
  };
}

export interface JsonResponse<T = Json> {
  status: number;
  headers: Headers;
  body: T;
}

/** fetch with a JSON body, returning the parsed body (or the text when it is not JSON). */
export async function request<T = Json>(
  url: string,
  init: {
    method?: string;
    headers?: Record<string, string>;
    body?: unknown;
    rawBody?: string;
    /** a request unanswered this long fails (an answer that never comes is a failure too) */
    timeoutMs?: number;
  } = {},
): Promise<JsonResponse<T>> {
  const headers: Record<string, string> = { ...(init.headers ?? {}) };
  let body: string | undefined = init.rawBody;
  if (init.body !== undefined) {
    body = JSON.stringify(init.body);
    headers['content-type'] ??= 'application/json';
  }
  const response = await fetch(url, {
    method: init.method ?? (body === undefined ? 'GET' : 'POST'),
    headers,
    body,
    signal: init.timeoutMs === undefined ? undefined : AbortSignal.timeout(init.timeoutMs),
  });
  const text = await response.text();
  let parsed: unknown = text;
  try {
    parsed = text ? JSON.parse(text) : null;
  } catch {
    // not JSON: keep the text
  }
  return { status: response.status, headers: response.headers, body: parsed as T };
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** Asserts the contract §2 envelope and returns it. */
export function expectEnvelope(response: JsonResponse, status: number, code?: string) {
  expect({ status: response.status, code: response.body?.error_code }).toEqual({
    status,
    code: code ?? response.body?.error_code,
  });
  expect(response.body.success).toBe(false);
  expect(response.body).toHaveProperty('data');
  expect(typeof response.body.error).toBe('string');
  expect(response.body.error_message).toBe(response.body.error);
  expect(response.body.error_id).toBe(response.headers.get('x-correlation-id'));
  expect(response.body.error_code).toMatch(/^[A-Z][A-Z0-9_]*$/);
  return response.body;
}

export { UUID };
