import { BUCKET_MS, SLICES, type SeriesQuery, type SliceBy } from '../../projections/concurrency/queries';
import { DEPLOYMENT_ENVIRONMENTS } from '../accounts/permissions';
import { isoTime } from '../conversations-api/list-query';
import { badRequest } from '../platform/errors/domain-error';

/** The longest range a series may cover (contract §17). */
const MAX_RANGE_MS = 7 * 24 * 3600 * 1000;

export const CHANNELS = ['CHAT', 'WEBCHAT', 'VOICE-SIP', 'SMS'] as const;

const KNOWN = [
  'start_time',
  'end_time',
  'client_env',
  'variant_id',
  'variant_name',
  'language',
  'phone_number',
  'channel',
  'slice_by',
];

type Raw = Record<string, unknown>;

const invalid = (field: string, rule: string) =>
  badRequest('INVALID_PARAMETER', `${field} ${rule}`, [{ field, message: `${field} ${rule}` }]);

function single(raw: Raw, name: string): string | undefined {
  const value = raw[name];
  if (value === undefined) return undefined;
  if (Array.isArray(value)) throw invalid(name, 'is given more than once');
  return String(value);
}

function text(raw: Raw, name: string, max: number): string | undefined {
  const value = single(raw, name);
  if (value === undefined) return undefined;
  if (value === '' || value.length > max) throw invalid(name, `must be 1 to ${max} characters`);
  return value;
}

function oneOf<T extends string>(name: string, value: string, values: readonly T[]): T {
  if (!(values as readonly string[]).includes(value)) throw invalid(name, `must be one of ${values.join(', ')}`);
  return value as T;
}

function time(raw: Raw, name: string): number {
  const value = single(raw, name);
  if (value === undefined || value === '') throw invalid(name, 'is required');
  const ms = isoTime(value);
  if (ms === null) throw invalid(name, 'must be an ISO 8601 date-time');
  return ms;
}

/**
 * The series' query (contract §17), checked before anything runs: the range (at most 7 days,
 * start rounded down and end up to a 5-minute mark), the filters and the slice. Each refusal is a
 * 400 naming its parameter.
 */
export function parseConcurrencyQuery(agentId: string, raw: Raw): SeriesQuery {
  const unknown = Object.keys(raw).find((name) => !KNOWN.includes(name));
  if (unknown !== undefined) throw invalid(unknown, `is not a parameter of this route (${KNOWN.join(', ')})`);
  const start = time(raw, 'start_time');
  const end = time(raw, 'end_time');
  if (end <= start) throw invalid('end_time', 'must be after start_time');
  if (end - start > MAX_RANGE_MS) throw invalid('end_time', 'must be at most 7 days after start_time');
  const env = single(raw, 'client_env');
  const variantId = text(raw, 'variant_id', 200);
  const variantName = text(raw, 'variant_name', 200);
  if (variantId !== undefined && variantName !== undefined)
    throw invalid('variant_name', 'cannot be given with variant_id: filter by one of them');
  const channel = raw.channel;
  const channels =
    channel === undefined
      ? undefined
      : [...new Set((Array.isArray(channel) ? channel : [channel]).map((c) => oneOf('channel', String(c), CHANNELS)))];
  const sliceBy = single(raw, 'slice_by');
  return {
    agentId,
    environment: env === undefined ? 'live' : oneOf('client_env', env, DEPLOYMENT_ENVIRONMENTS),
    fromBucket: Math.floor(start / BUCKET_MS),
    toBucket: Math.ceil(end / BUCKET_MS),
    ...(variantId !== undefined ? { variantId } : {}),
    ...(variantName !== undefined ? { variantName } : {}),
    ...(raw.language !== undefined ? { language: text(raw, 'language', 35) } : {}),
    ...(raw.phone_number !== undefined ? { phoneNumber: text(raw, 'phone_number', 20) } : {}),
    ...(channels ? { channels } : {}),
    ...(sliceBy !== undefined
      ? { sliceBy: oneOf<SliceBy>('slice_by', sliceBy, Object.keys(SLICES) as SliceBy[]) }
      : {}),
  };
}
