import { envelopeExtras } from '../../src/platform/errors/envelope-flavours';
import type { Json } from '../helpers/json';

/**
 * What the fuzz asserts of one answer (contract §2): never a 5xx, and every non-2xx answer is the
 * error envelope, with the Alerts and SMS flavours' extra fields (envelope-flavours.ts).
 */

export interface Answer {
  status: number;
  headers: Headers;
  text: string;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const CODE = /^[A-Z][A-Z0-9_]*$/;
const BASE_KEYS = ['success', 'error', 'error_id', 'error_code', 'error_message', 'data'];
/** Codes whose `data` carries details by contract (§5: merge conflicts list them). */
const CODES_WITH_DATA = new Set(['MERGE_CONFLICT']);
/** A stack frame in a message: contract §2 forbids them in bodies. */
const STACK_FRAME = /\n\s+at .+\(.*:\d+:\d+\)|node_modules\/|\/src\/[\w/-]+\.ts/;

export function answerProblems(path: string, answer: Answer): string[] {
  const { status } = answer;
  if (status >= 500) return [`5xx: ${status}`, ...envelopeProblems(path, answer)];
  if (status < 200 || (status >= 300 && status < 400)) return [`unexpected status ${status}`];
  if (status < 300) return [];
  return envelopeProblems(path, answer);
}

function envelopeProblems(path: string, answer: Answer): string[] {
  let body: Json;
  try {
    body = JSON.parse(answer.text);
  } catch {
    return [`not JSON (content-type ${answer.headers.get('content-type') ?? 'none'})`];
  }
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return ['not an envelope object'];
  // someone else's error body (Fastify's, Node's): one problem, not ten
  if (!('error_code' in body) && !('success' in body))
    return [`not the envelope: a body with ${Object.keys(body).sort().join(', ')}`];
  const problems: string[] = [];
  if (body.success !== false) problems.push('success is not false');
  if (typeof body.error !== 'string' || body.error === '') problems.push('error is not a non-empty string');
  if (body.error_message !== body.error) problems.push('error_message differs from error');
  if (typeof body.error_code !== 'string' || !CODE.test(body.error_code))
    problems.push(`error_code ${JSON.stringify(body.error_code)} is not UPPER_SNAKE`);
  if (typeof body.error_id !== 'string' || !UUID.test(body.error_id))
    problems.push(`error_id ${JSON.stringify(body.error_id)} is not a uuid`);
  else if (body.error_id !== answer.headers.get('x-correlation-id'))
    problems.push('error_id differs from the X-Correlation-Id header');
  if (!('data' in body)) problems.push('no data field');
  else if (body.data !== null && !CODES_WITH_DATA.has(body.error_code)) problems.push('data is not null');
  const extras = envelopeExtras(path, String(body.error), []);
  if ('message' in extras && body.message !== body.error) problems.push('Alerts flavour: message differs from error');
  if ('detail' in extras && body.detail !== body.error) problems.push('SMS flavour: detail differs from error');
  if ('errors' in extras || 'errors' in body) {
    const rows = body.errors;
    const rowsOk =
      Array.isArray(rows) && rows.every((r: Json) => typeof r?.field === 'string' && typeof r?.message === 'string');
    if (!rowsOk && ('errors' in extras || rows !== undefined))
      problems.push('errors is not an array of {field, message}');
  }
  const allowed = new Set([...BASE_KEYS, 'errors', ...Object.keys(extras)]);
  const unknown = Object.keys(body).filter((k) => !allowed.has(k));
  if (unknown.length > 0) problems.push(`unexpected fields ${unknown.join(', ')}`);
  if (STACK_FRAME.test(answer.text)) problems.push('a stack trace or source path in the body');
  return problems;
}

/** The projections and process managers `/readyz` reports as broken (or holding dead letters). */
export function brokenParts(readyz: Json): string[] {
  const broken: string[] = [];
  for (const p of readyz?.projections ?? []) {
    if (p.state === 'failed' || (p.error !== null && p.error !== undefined))
      broken.push(`read model ${p.name} ${p.state}: ${String(p.error).slice(0, 300)}`);
    broken.push(...deadLetterCounts(`read model ${p.name}`, p));
  }
  for (const m of readyz?.processManagers ?? []) {
    if (m.error !== null && m.error !== undefined)
      broken.push(`process manager ${m.name}: ${String(m.error).slice(0, 300)}`);
    broken.push(...deadLetterCounts(`process manager ${m.name}`, m));
  }
  return broken;
}

/** Any numeric field named for dead letters: an event a handler refused is a poison that got in. */
function deadLetterCounts(label: string, part: Record<string, unknown>): string[] {
  return Object.entries(part)
    .filter(([key, value]) => /dead/i.test(key) && typeof value === 'number' && value > 0)
    .map(([key, value]) => `${label}: ${key} = ${value}`);
}

/** `parley_http_requests_total` series from /metrics: route template, method, status, count. */
export function requestSeries(
  metrics: string,
): Array<{ route: string; method: string; status: string; count: number }> {
  const series: Array<{ route: string; method: string; status: string; count: number }> = [];
  for (const line of metrics.split('\n')) {
    if (!line.startsWith('parley_http_requests_total{')) continue;
    const labels = Object.fromEntries([...line.matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)].map((m) => [m[1], m[2]]));
    series.push({
      route: labels.route,
      method: labels.method,
      status: labels.status,
      count: Number(line.slice(line.lastIndexOf(' ') + 1)),
    });
  }
  return series;
}

/** Dead-letter series with a count above zero, whatever their exact name. */
export function deadLetterSeries(metrics: string): string[] {
  return metrics
    .split('\n')
    .filter(
      (line) => !line.startsWith('#') && /dead_letter/i.test(line) && Number(line.slice(line.lastIndexOf(' ') + 1)) > 0,
    );
}
