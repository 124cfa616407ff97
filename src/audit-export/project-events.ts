import {
  conversationStream,
  isTestConversationStream,
  type ConversationEvent,
} from '../conversations/conversation.events';
import type { EventStore, RecordedEvent } from '../event-store/event-store.port';
import type { Position } from '../event-store/position';
import { auditEvent } from '../conversations-api/conversations-api.service';
import type { Access } from '../conversations-api/render';

const CONVERSATION_STREAM = conversationStream('');
/** Log events read per round trip while scanning. */
const READ_BATCH = 500;

/** One event of the project's audit trail: the per-conversation audit entry, with its conversation. */
export type AuditLine = ReturnType<typeof auditEvent> & { conversation_id: string };

export interface ExportWindow {
  /** inclusive, ISO 8601: events that occurred at or after it */
  from?: string;
  /** exclusive, ISO 8601: events that occurred before it */
  to?: string;
}

export interface ExportLimits {
  /** the most events one page holds */
  maxEvents: number;
  /** the most log events one page reads, matching or not: bounds the work of a page over a log of other projects */
  maxScanned: number;
}

/** What a page ends with: where to continue, or null when the log was read to its head. */
export interface PageEnd {
  next: Position | null;
}

/**
 * Every stored event of one project's conversations, in log order, after `after`, filtered by
 * data access as `/conversations/{id}/events` is, one page at a time. A generator: the caller
 * writes each line as it comes, so a page is never held in memory whole. Test runs'
 * conversations belong to no audit trail (contract §19). Which project a conversation belongs to
 * is its first event's (ConversationStarted); a conversation that started before the page is
 * looked up once per page.
 */
export async function* projectEvents(
  store: EventStore,
  agentId: string,
  access: Access,
  window: ExportWindow,
  after: Position | undefined,
  limits: ExportLimits,
): AsyncGenerator<AuditLine, PageEnd> {
  const owners = new Map<string, boolean>();
  const ours = async (event: RecordedEvent): Promise<boolean> => {
    const known = owners.get(event.streamId);
    if (known !== undefined) return known;
    let first: RecordedEvent | undefined = event;
    if (event.revision !== 0n) [first] = await store.readStream(event.streamId, { maxCount: 1 });
    const started = first as unknown as ConversationEvent | undefined;
    const mine = started?.type === 'ConversationStarted' && started.data.agentId === agentId;
    if (owners.size >= 10_000) owners.clear();
    owners.set(event.streamId, mine);
    return mine;
  };
  let position = after;
  let emitted = 0;
  let scanned = 0;
  for (;;) {
    const batch = await store.readAll({ after: position, maxCount: READ_BATCH });
    for (const event of batch) {
      position = event.position;
      scanned++;
      if (
        event.streamId.startsWith(CONVERSATION_STREAM) &&
        !isTestConversationStream(event.streamId) &&
        inWindow(event, window) &&
        (await ours(event))
      ) {
        yield { ...auditEvent(event, access), conversation_id: event.streamId.slice(CONVERSATION_STREAM.length) };
        emitted++;
      }
      if (emitted >= limits.maxEvents || scanned >= limits.maxScanned) return { next: position };
    }
    if (batch.length < READ_BATCH) return { next: null };
  }
}

function inWindow(event: RecordedEvent, window: ExportWindow): boolean {
  const at = String((event.metadata as { occurredAt?: string }).occurredAt ?? '');
  return (window.from === undefined || at >= window.from) && (window.to === undefined || at < window.to);
}
