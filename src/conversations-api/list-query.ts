import type { ListFilters, SearchMode } from '../../projections/conversations/queries';
import { badRequest } from '../platform/errors/domain-error';
import { OUTCOMES } from '../conversations/conversation.events';

export type { ListFilters, SearchMode };

export type ApiVersion = 'v1' | 'v2' | 'v3';
/** `draft`: draft chats on a branch (contract §26), listed only when asked for */
const ENVIRONMENTS = ['sandbox', 'pre-release', 'live', 'draft'] as const;

export interface ListQuery extends ListFilters {
  limit: number;
  offset: number;
  cursor: string | null;
  includeLatency: boolean;
  includeContextState: boolean;
  includeTurnMetadata: boolean;
}

export interface OneQuery {
  includeLatency: boolean;
  includeContextState: boolean;
  includeTurnMetadata: boolean;
  /** a stream revision, or an ISO time */
  asOf: { revision: number } | { time: string } | null;
}

/** Parameters v1 does not know (interface.md "Versioning", contract §8). */
const V3_ONLY = ['query_type', 'sample', 'query', 'turn_type', 'channel', 'cursor', 'outcome'];

type Raw = Record<string, unknown>;

const invalid = (name: string, rule: string) => badRequest('INVALID_PARAMETER', `${name} ${rule}`);

function single(raw: Raw, name: string): string | undefined {
  const value = raw[name];
  if (value === undefined) return undefined;
  if (Array.isArray(value)) throw invalid(name, 'is given more than once');
  return String(value);
}

function many(raw: Raw, name: string): string[] {
  const value = raw[name];
  if (value === undefined) return [];
  return (Array.isArray(value) ? value : [value]).map(String).filter((v) => v !== '');
}

function bool(raw: Raw, name: string): boolean | null {
  const value = single(raw, name);
  if (value === undefined || value === '') return null;
  if (value === 'true' || value === '1') return true;
  if (value === 'false' || value === '0') return false;
  throw invalid(name, 'must be true or false');
}

function integer(raw: Raw, name: string, fallback: number, min: number, max: number): number {
  const value = single(raw, name);
  if (value === undefined || value === '') return fallback;
  if (!/^-?\d+$/.test(value)) throw invalid(name, `must be an integer from ${min} to ${max}`);
  const n = Number(value);
  if (n < min || n > max) throw invalid(name, `must be an integer from ${min} to ${max}`);
  return n;
}

function time(raw: Raw, name: string): string | null {
  const value = single(raw, name);
  if (value === undefined || value === '') return null;
  const ms = isoTime(value);
  if (ms === null) throw invalid(name, 'must be an ISO 8601 date-time');
  return new Date(ms).toISOString();
}

/** ISO 8601 date or date-time (a bare number is not a time here). */
export function isoTime(value: string): number | null {
  if (!/^\d{4}-\d{2}-\d{2}([T ][\d:.]+(Z|[+-]\d{2}:?\d{2})?)?$/.test(value)) return null;
  const ms = Date.parse(value);
  return Number.isNaN(ms) ? null : ms;
}

function oneOf<T extends string>(raw: Raw, name: string, values: readonly T[], fallback: T | null): T | null {
  const value = single(raw, name);
  if (value === undefined || value === '') return fallback;
  if (!(values as readonly string[]).includes(value)) throw invalid(name, `must be one of ${values.join(', ')}`);
  return value as T;
}

const includes = (raw: Raw) => ({
  includeLatency: bool(raw, 'include_latency') ?? false,
  includeContextState: bool(raw, 'include_context_state') ?? false,
  includeTurnMetadata: bool(raw, 'include_turn_metadata') ?? false,
});

/** The list route's query string, checked against the rules of interface.md ("Conversations API"). */
export function parseListQuery(version: ApiVersion, raw: Raw): ListQuery {
  if (version === 'v1') {
    const unsupported = V3_ONLY.find((name) => raw[name] !== undefined);
    if (unsupported) throw badRequest('PARAMETER_NOT_SUPPORTED', `${unsupported} is not a v1 parameter; use /v3`);
  }
  const outcomes = many(raw, 'outcome');
  const unknownOutcome = outcomes.find((o) => !(OUTCOMES as readonly string[]).includes(o));
  if (unknownOutcome !== undefined) throw invalid('outcome', `must be one of ${OUTCOMES.join(', ')}`);
  const startTime = time(raw, 'start_time');
  const endTime = time(raw, 'end_time');
  if (startTime && endTime && startTime > endTime) throw invalid('start_time', 'must not be after end_time');
  const queryType = oneOf(raw, 'query_type', ['transcript', 'semantic'] as const, null);
  const sample = oneOf(raw, 'sample', ['random'] as const, null);
  const query = single(raw, 'query');
  const turnType = oneOf(raw, 'turn_type', ['user', 'agent'] as const, null);
  if (queryType && sample) throw invalid('sample', 'cannot be combined with query_type: use one retrieval mode');
  if (queryType && (query === undefined || query.trim() === ''))
    throw invalid('query', `is required with query_type=${queryType}`);
  if (!queryType && query !== undefined) throw invalid('query', 'needs query_type (transcript or semantic)');
  if (turnType && queryType !== 'transcript') throw invalid('turn_type', 'applies to query_type=transcript only');
  if ((queryType || sample) && (!startTime || !endTime))
    throw invalid(
      startTime ? 'end_time' : 'start_time',
      `is required with ${queryType ? 'query_type' : 'sample'}: bound the time range`,
    );
  return {
    startTime,
    endTime,
    clientEnv: oneOf(raw, 'client_env', ENVIRONMENTS, 'live')!,
    channels: many(raw, 'channel'),
    outcomes: [...new Set(outcomes)],
    variantId: single(raw, 'variant_id') || null,
    variantName: single(raw, 'variant_name') || null,
    inProgress: bool(raw, 'in_progress'),
    search: queryType ? { type: queryType, query: query!.trim(), turnType } : null,
    sample: sample === 'random',
    limit: integer(raw, 'limit', 5, 1, 5000),
    offset: integer(raw, 'offset', 0, 0, Number.MAX_SAFE_INTEGER),
    cursor: single(raw, 'cursor') || null,
    ...includes(raw),
  };
}

/** The single-conversation route's query string. */
export function parseOneQuery(raw: Raw): OneQuery {
  const asOfRaw = single(raw, 'as_of');
  let asOf: OneQuery['asOf'] = null;
  if (asOfRaw !== undefined && asOfRaw !== '') {
    if (/^\d+$/.test(asOfRaw)) asOf = { revision: Number(asOfRaw) };
    else {
      const ms = isoTime(asOfRaw);
      if (ms === null) throw invalid('as_of', 'must be an ISO 8601 date-time or a stream revision (an integer)');
      asOf = { time: new Date(ms).toISOString() };
    }
  }
  return { ...includes(raw), asOf };
}
