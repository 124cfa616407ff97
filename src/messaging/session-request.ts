import { MAX_BODY_DEPTH, jsonTooDeep } from '../platform/validation/body-depth';
import { httpError } from './http-errors';

export interface SessionRequest {
  streamingEnabled: boolean;
  platform: string;
}

/**
 * The optional body of POST /api/v1/sessions, read from its raw text so that a body that is not
 * JSON answers this API's own "Error parsing request" (interface.md) and only after the token
 * checks, which come first.
 */
export function parseSessionRequest(raw: unknown): SessionRequest {
  const text =
    typeof raw === 'string'
      ? raw
      : Buffer.isBuffer(raw)
        ? raw.toString('utf8')
        : raw === undefined || raw === null
          ? ''
          : null;
  if (text === null) throw httpError('parseError');
  if (text.trim() === '') return { streamingEnabled: false, platform: '' };
  if (jsonTooDeep(text))
    throw httpError('parseError', {}, [{ field: 'body', message: `body nests deeper than ${MAX_BODY_DEPTH} levels` }]);
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw httpError('parseError');
  }
  if (typeof body !== 'object' || body === null || Array.isArray(body))
    throw httpError('parseError', {}, [{ field: 'body', message: 'body must be a JSON object' }]);
  const { streaming_enabled: streaming, platform } = body as Record<string, unknown>;
  if (streaming !== undefined && typeof streaming !== 'boolean')
    throw httpError('parseError', {}, [{ field: 'streaming_enabled', message: 'streaming_enabled must be a boolean' }]);
  if (platform !== undefined && (typeof platform !== 'string' || platform.length > 64))
    throw httpError('parseError', {}, [
      { field: 'platform', message: 'platform must be a string of at most 64 characters' },
    ]);
  return { streamingEnabled: streaming ?? false, platform: platform ?? '' };
}

/** `Authorization: Bearer <token>`: missing is 400, any other form 401 (interface.md's session table). */
export function bearerToken(header: string | string[] | undefined): string {
  const value = Array.isArray(header) ? header[0] : header;
  if (value === undefined || value.trim() === '') throw httpError('missingAccessToken');
  const match = /^Bearer\s+(\S+)\s*$/i.exec(value.trim());
  if (!match) throw httpError('missingAuthHeaders');
  return match[1];
}
