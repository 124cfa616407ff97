import type { Conversation } from '../api/types';

/** A notice of /studio/ws (docs/sockets.md). */
export interface FeedNotice {
  type: 'CONVERSATION_STARTED' | 'CONVERSATION_UPDATED' | 'CONVERSATION_ENDED';
  conversation: Conversation;
}

/** The list's filters as far as a new conversation can be checked against them in the page. */
export interface ListShape {
  client_env: string;
  channels: string[];
  in_progress: '' | 'true' | 'false';
  /** ISO instants, or undefined */
  start?: string;
  end?: string;
  /** a search or a sample: ranked or random, so a new row has no place to go */
  ranked: boolean;
}

/**
 * Merges a live notice into the rows on screen (newest first). A row already shown takes the new
 * values in place; a conversation that started and fits the filters goes on top; anything else
 * (an update of a row not loaded yet, a search's results) is left for the next load.
 */
export function mergeNotice(rows: Conversation[], notice: FeedNotice, shape: ListShape): Conversation[] {
  const incoming = notice.conversation;
  const at = rows.findIndex((row) => row.id === incoming.id);
  if (at >= 0) {
    const next = rows.slice();
    next[at] = { ...rows[at], ...incoming, turns: rows[at].turns };
    return next;
  }
  if (notice.type !== 'CONVERSATION_STARTED' || !fits(incoming, shape)) return rows;
  return [incoming, ...rows];
}

function fits(c: Conversation, shape: ListShape): boolean {
  if (shape.ranked) return false;
  if (c.environment !== undefined && c.environment !== shape.client_env) return false;
  if (shape.channels.length > 0 && !shape.channels.includes(c.channel)) return false;
  if (shape.in_progress !== '' && String(c.in_progress) !== shape.in_progress) return false;
  if (shape.start && c.started_at < shape.start) return false;
  if (shape.end && c.started_at >= shape.end) return false;
  return true;
}
