import type { WireEvent } from './wire';

const CHUNK = 'EVENT_TYPE_SERVICE_AGENT_MESSAGE_CHUNK';
const MESSAGE = 'EVENT_TYPE_SERVICE_AGENT_MESSAGE';

/** Chunks of an answer whose stored message never comes (its turn failed to record) are dropped after this. */
const HELD_CHUNKS_MS = 30_000;

/**
 * Orders a streamed answer after the user message that caused it. A turn's chunks are made before
 * the turn is stored, and the stored events (the user's message, then the answer) reach the
 * sockets from the log a moment later, so sent at once the chunks would be drawn above the
 * question. Held here per session and answer (`message_id`), they go out right before the stored
 * answer, which in the log follows the user's message.
 */
export class HeldChunks {
  private readonly held = new Map<string, Map<string, { events: WireEvent[]; timer: NodeJS.Timeout }>>();

  constructor(private readonly holdMs = HELD_CHUNKS_MS) {}

  /** True when the event is a chunk and is now held for its answer. */
  hold(sessionId: string, event: WireEvent): boolean {
    const messageId = event.payload.message_id;
    if (event.type !== CHUNK || typeof messageId !== 'string') return false;
    let answers = this.held.get(sessionId);
    if (!answers) this.held.set(sessionId, (answers = new Map()));
    const answer = answers.get(messageId);
    if (answer) {
      answer.events.push(event);
      return true;
    }
    const timer = setTimeout(() => this.drop(sessionId, messageId), this.holdMs);
    timer.unref();
    answers.set(messageId, { events: [event], timer });
    return true;
  }

  /** The stored events with each answer's held chunks right before it. */
  release(sessionId: string, stored: WireEvent[]): WireEvent[] {
    const answers = this.held.get(sessionId);
    if (!answers) return stored;
    const out: WireEvent[] = [];
    for (const event of stored) {
      const messageId = event.type === MESSAGE ? event.payload.message_id : undefined;
      const answer = typeof messageId === 'string' ? answers.get(messageId) : undefined;
      if (answer) {
        out.push(...answer.events);
        this.drop(sessionId, messageId as string);
      }
      out.push(event);
    }
    return out;
  }

  get size(): number {
    let n = 0;
    for (const answers of this.held.values()) n += answers.size;
    return n;
  }

  private drop(sessionId: string, messageId: string): void {
    const answers = this.held.get(sessionId);
    const answer = answers?.get(messageId);
    if (!answers || !answer) return;
    clearTimeout(answer.timer);
    answers.delete(messageId);
    if (answers.size === 0) this.held.delete(sessionId);
  }
}
