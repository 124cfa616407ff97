import { isoTime } from '../conversations-api/list-query';
import { badRequest } from '../platform/errors/domain-error';

type Granularity = 'hour' | 'day';

/** An analytics request, checked (contract §23). Times in epoch ms; `toMs` exclusive. */
export interface AnalyticsQuery {
  fromMs: number;
  toMs: number;
  granularity: Granularity;
  environment: string;
  channels: string[];
}

const DAY = 86_400_000;
const MAX_RANGE_MS: Record<Granularity, number> = { day: 92 * DAY, hour: 7 * DAY };
const ENVIRONMENTS = ['sandbox', 'pre-release', 'live'];
const CHANNELS = ['CHAT', 'WEBCHAT', 'VOICE-SIP', 'SMS'];

const invalid = (name: string, rule: string) => badRequest('INVALID_PARAMETER', `${name} ${rule}`);

function single(raw: Record<string, unknown>, name: string): string | undefined {
  const value = raw[name];
  if (value === undefined || value === '') return undefined;
  if (Array.isArray(value)) throw invalid(name, 'is given more than once');
  return String(value);
}

function time(raw: Record<string, unknown>, name: string): number | undefined {
  const value = single(raw, name);
  if (value === undefined) return undefined;
  const ms = isoTime(value);
  if (ms === null) throw invalid(name, 'must be an ISO 8601 date-time');
  return ms;
}

/**
 * The query string of GET /v1/{account}/{project}/analytics. The range ends now unless `end_time`
 * says, and starts 7 days before its end unless `start_time` says. At most 92 days, 7 with
 * `granularity=hour`.
 */
export function parseAnalyticsQuery(raw: Record<string, unknown>, nowMs: number): AnalyticsQuery {
  const granularity = (single(raw, 'granularity') ?? 'day') as Granularity;
  if (granularity !== 'hour' && granularity !== 'day') throw invalid('granularity', 'must be one of hour, day');
  const environment = single(raw, 'client_env') ?? 'live';
  if (!ENVIRONMENTS.includes(environment)) throw invalid('client_env', `must be one of ${ENVIRONMENTS.join(', ')}`);
  const rawChannels = raw.channel === undefined ? [] : Array.isArray(raw.channel) ? raw.channel : [raw.channel];
  const channels = [...new Set(rawChannels.map(String).filter((c) => c !== ''))];
  const unknown = channels.find((c) => !CHANNELS.includes(c));
  if (unknown !== undefined) throw invalid('channel', `must be one of ${CHANNELS.join(', ')}`);
  const toMs = time(raw, 'end_time') ?? nowMs;
  const fromMs = time(raw, 'start_time') ?? toMs - 7 * DAY;
  if (fromMs >= toMs) throw invalid('start_time', 'must be before end_time');
  if (toMs - fromMs > MAX_RANGE_MS[granularity])
    throw invalid(
      'end_time',
      granularity === 'hour'
        ? 'must be at most 7 days after start_time with granularity=hour'
        : 'must be at most 92 days after start_time',
    );
  return { fromMs, toMs, granularity, environment, channels };
}
