import { jsonTooDeep } from '../platform/validation/body-depth';
import { SYSTEM_MESSAGES } from './system-messages';
import { CLIENT_KINDS, SERVER_KINDS, type ClientKind } from './wire';

export type ClientMessage =
  | { kind: 'EVENT_TYPE_REQUEST_SERVICE_AGENT_JOIN'; custom?: unknown }
  | { kind: 'EVENT_TYPE_USER_MESSAGE'; text: string; custom?: unknown }
  | { kind: 'EVENT_TYPE_USER_TYPING'; state: unknown; custom?: unknown }
  | { kind: 'EVENT_TYPE_USER_END_SESSION'; custom?: unknown }
  | { kind: 'EVENT_TYPE_HEARTBEAT'; payload: Record<string, unknown>; custom?: unknown };

/** A message the server answers with a system error; `custom` is echoed back in it. */
export interface Rejected {
  error: string;
  custom?: unknown;
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * Reads one client frame: `{type, payload?, metadata?: {custom}}`. The envelope decides the
 * "invalid message format" and "not allowed" answers; a known kind whose payload does not hold
 * what it needs is invalid data ("encountered an error").
 */
export function parseClientMessage(raw: string): ClientMessage | Rejected {
  // a frame's custom metadata is recorded, and a deeply nested value would overflow the stack where it is serialised
  if (jsonTooDeep(raw)) return { error: SYSTEM_MESSAGES.invalidFormat };
  let frame: unknown;
  try {
    frame = JSON.parse(raw);
  } catch {
    return { error: SYSTEM_MESSAGES.invalidFormat };
  }
  if (!isObject(frame)) return { error: SYSTEM_MESSAGES.invalidFormat };
  const metadata = frame.metadata;
  const custom = isObject(metadata) ? metadata.custom : undefined;
  const withCustom = custom !== undefined ? { custom } : {};
  if (metadata !== undefined && metadata !== null && !isObject(metadata))
    return { error: SYSTEM_MESSAGES.invalidFormat };
  const type = frame.type;
  if (typeof type !== 'string') return { error: SYSTEM_MESSAGES.invalidFormat, ...withCustom };
  if ((SERVER_KINDS as readonly string[]).includes(type))
    return { error: SYSTEM_MESSAGES.notAllowed(type), ...withCustom };
  if (!(CLIENT_KINDS as readonly string[]).includes(type))
    return { error: SYSTEM_MESSAGES.invalidFormat, ...withCustom };
  const payload = frame.payload ?? {};
  if (!isObject(payload)) return { error: SYSTEM_MESSAGES.invalidFormat, ...withCustom };
  switch (type as ClientKind) {
    case 'EVENT_TYPE_USER_MESSAGE':
      if (typeof payload.text !== 'string' || payload.text.trim() === '')
        return { error: SYSTEM_MESSAGES.encounteredError, ...withCustom };
      return { kind: 'EVENT_TYPE_USER_MESSAGE', text: payload.text, ...withCustom };
    case 'EVENT_TYPE_USER_TYPING':
      if (payload.state === undefined) return { error: SYSTEM_MESSAGES.encounteredError, ...withCustom };
      return { kind: 'EVENT_TYPE_USER_TYPING', state: payload.state, ...withCustom };
    case 'EVENT_TYPE_HEARTBEAT':
      return { kind: 'EVENT_TYPE_HEARTBEAT', payload, ...withCustom };
    case 'EVENT_TYPE_REQUEST_SERVICE_AGENT_JOIN':
      return { kind: 'EVENT_TYPE_REQUEST_SERVICE_AGENT_JOIN', ...withCustom };
    case 'EVENT_TYPE_USER_END_SESSION':
      return { kind: 'EVENT_TYPE_USER_END_SESSION', ...withCustom };
  }
}

export const isRejected = (m: ClientMessage | Rejected): m is Rejected => 'error' in m;
