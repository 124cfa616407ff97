import { jsonTooDeep, MAX_BODY_DEPTH } from '../../platform/validation/body-depth';

/**
 * The desk's frames (JSON, one per WebSocket message). A human agent sends:
 * `{type: "ACCEPT", session_id}`, `{type: "MESSAGE", session_id, text}`,
 * `{type: "TYPING", session_id, state}`, `{type: "LEAVE", session_id}`.
 * The server sends `DESK_READY`, `QUEUE_UPDATED`, `SESSION_ACCEPTED`, `SESSION_EVENT` and `ERROR`.
 */
export type DeskCommand =
  | { type: 'ACCEPT'; sessionId: string }
  | { type: 'MESSAGE'; sessionId: string; text: string }
  | { type: 'TYPING'; sessionId: string; state: unknown }
  | { type: 'LEAVE'; sessionId: string };

export interface QueuedSession {
  session_id: string;
  agent_id: string;
  destination: string;
  reason: string;
  queued_at: string;
}

export function parseDeskFrame(raw: string): DeskCommand | { error: string; sessionId?: string } {
  if (jsonTooDeep(raw)) return { error: `frames may nest at most ${MAX_BODY_DEPTH} levels` };
  let frame: unknown;
  try {
    frame = JSON.parse(raw);
  } catch {
    return { error: 'frames must be JSON objects' };
  }
  if (typeof frame !== 'object' || frame === null || Array.isArray(frame))
    return { error: 'frames must be JSON objects' };
  const { type, session_id: sessionId, text, state } = frame as Record<string, unknown>;
  if (typeof sessionId !== 'string' || sessionId === '') return { error: 'session_id is required' };
  switch (type) {
    case 'ACCEPT':
    case 'LEAVE':
      return { type, sessionId };
    case 'MESSAGE':
      if (typeof text !== 'string' || text.trim() === '')
        return { error: 'text must be a non-empty string', sessionId };
      return { type, sessionId, text };
    case 'TYPING':
      return { type, sessionId, state: state ?? true };
    default:
      return { error: 'type must be one of ACCEPT, MESSAGE, TYPING, LEAVE', sessionId };
  }
}
