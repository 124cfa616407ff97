import { PERMISSIONS } from '../../src/platform/auth/permissions';
import { request, type JsonResponse, type TestApp } from './test-app';
import type { Json } from './json';

/** Fixtures for the accounts / API keys / auth suites: accounts, keys and agents over HTTP. */

/** Every permission a key can hold: the key guard's own list. */
export const ALL_PERMISSIONS = PERMISSIONS;

export const op = (t: TestApp) => ({ 'x-operator-token': t.operatorToken });
export const withKey = (key: string, extra: Record<string, string> = {}) => ({ 'x-api-key': key, ...extra });

/** The platform's current time: from the test clock when the app has one, else the wall clock. */
export async function platformNow(t: TestApp): Promise<number> {
  const r = await request(`${t.url}/admin/v1/clock/advance`, { body: { seconds: 0 }, headers: op(t) });
  return r.status === 200 ? Date.parse(r.body.now) : Date.now();
}

export async function advanceClock(t: TestApp, seconds: number): Promise<number> {
  const r = await request(`${t.url}/admin/v1/clock/advance`, { body: { seconds }, headers: op(t) });
  if (r.status !== 200) throw new Error(`clock advance failed: ${r.status} ${JSON.stringify(r.body)}`);
  return Date.parse(r.body.now);
}

export const DAY_MS = 24 * 3600 * 1000;
/** An expiry 30 days ahead of the wall clock (safe for apps without the test clock). */
export const inDays = (days: number, from = Date.now()) => new Date(from + days * DAY_MS).toISOString();

export async function createAccount(t: TestApp, name = 'Acme', region = 'us'): Promise<string> {
  const r = await request(`${t.url}/admin/v1/accounts`, { body: { name, region }, headers: op(t) });
  if (r.status !== 201) throw new Error(`account create failed: ${r.status} ${JSON.stringify(r.body)}`);
  return r.body.accountId as string;
}

export interface KeySpec {
  name?: string;
  agents?: 'all' | string[];
  permissions?: readonly string[];
  expiresAt?: string;
}

/** An operator-issued key; returns the whole 201 body (`key` holds the full value). */
export async function operatorKey(t: TestApp, accountId: string, spec: KeySpec = {}): Promise<Json> {
  const r = await operatorKeyResponse(t, accountId, spec);
  if (r.status !== 201) throw new Error(`key create failed: ${r.status} ${JSON.stringify(r.body)}`);
  return r.body;
}

function operatorKeyResponse(t: TestApp, accountId: string, spec: KeySpec = {}): Promise<JsonResponse> {
  return request(`${t.url}/admin/v1/accounts/${accountId}/api-keys`, {
    body: {
      name: spec.name ?? 'test key',
      agents: spec.agents ?? 'all',
      permissions: spec.permissions ?? [...ALL_PERMISSIONS],
      expiresAt: spec.expiresAt ?? inDays(30),
    },
    headers: op(t),
  });
}

export async function createAgent(
  t: TestApp,
  accountId: string,
  key: string,
  name = 'Support bot',
  greeting = 'Hello!',
): Promise<string> {
  const r = await request(`${t.url}/v1/accounts/${accountId}/agents`, {
    body: { name, responseSettings: { greeting } },
    headers: withKey(key),
  });
  if (r.status !== 200 && r.status !== 201)
    throw new Error(`agent create failed: ${r.status} ${JSON.stringify(r.body)}`);
  return r.body.agentId as string;
}

/** The list of keys, whether the route answers with an array or an object holding one. */
export function keyList(body: unknown): Json[] {
  if (Array.isArray(body)) return body;
  const arrays = Object.values((body ?? {}) as Record<string, unknown>).filter(Array.isArray);
  if (arrays.length !== 1) throw new Error(`expected one list in ${JSON.stringify(body)}`);
  return arrays[0] as Json[];
}

/** The concatenated text of every field problem an error names: message plus `errors[]`. */
export function errorText(body: unknown): string {
  const envelope = (body ?? {}) as { error_message?: string; errors?: Array<{ field: string; message: string }> };
  return [envelope.error_message ?? '', ...(envelope.errors ?? []).map((e) => `${e.field} ${e.message}`)].join(' | ');
}
