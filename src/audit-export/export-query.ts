import { isPosition, type Position } from '../event-store/position';
import { badRequest } from '../platform/errors/domain-error';
import { queryParam } from '../platform/http/query-params';
import type { ExportWindow } from './project-events';

const DEFAULT_PAGE_EVENTS = 1000;
export const MAX_PAGE_EVENTS = 10_000;
/** log events one page reads at most, of any project */
export const MAX_PAGE_SCANNED = 50_000;

export interface ExportQuery {
  window: ExportWindow;
  after: Position | undefined;
  limit: number;
}

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2})$/;

/** An ISO 8601 instant with a zone, as the platform writes times (UTC, milliseconds). */
export function isoInstant(name: string, raw: string | undefined): string | undefined {
  if (raw === undefined) return undefined;
  const ms = Date.parse(raw);
  if (!ISO.test(raw) || Number.isNaN(ms))
    throw badRequest('VALIDATION_ERROR', `${name} must be an ISO 8601 time with a zone`);
  return new Date(ms).toISOString();
}

/** `start_time`, `end_time` (ISO, [start, end)), `cursor` (a log position handed out before) and `limit`. */
export function parseExportQuery(query: Record<string, unknown>): ExportQuery {
  const from = isoInstant('start_time', queryParam(query, 'start_time'));
  const to = isoInstant('end_time', queryParam(query, 'end_time'));
  if (from !== undefined && to !== undefined && from >= to)
    throw badRequest('VALIDATION_ERROR', 'start_time must be before end_time');
  const cursor = queryParam(query, 'cursor');
  if (cursor !== undefined && !isPosition(cursor))
    throw badRequest('INVALID_CURSOR', 'cursor is not one this API handed out');
  const rawLimit = queryParam(query, 'limit');
  const limit = rawLimit === undefined ? DEFAULT_PAGE_EVENTS : Number(rawLimit);
  if (!/^\d+$/.test(rawLimit ?? '1') || limit < 1 || limit > MAX_PAGE_EVENTS)
    throw badRequest('VALIDATION_ERROR', `limit must be an integer from 1 to ${MAX_PAGE_EVENTS}`);
  return { window: { from, to }, after: cursor as Position | undefined, limit };
}
