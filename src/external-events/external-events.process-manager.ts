import type { Logger } from 'pino';
import type { ServedContent } from '../agents/deployment-content';
import type { ConversationEngine } from '../conversations/engine/conversation-engine';
import type { RecordedEvent } from '../event-store/event-store.port';
import type { Clock } from '../platform/clock/clock';
import { DomainError } from '../platform/errors/domain-error';
import type { Pace, ProcessManager } from '../process-managers/process-manager';
import { bodyKindOf } from './event-id';
import { eventTurn } from './event-turn';
import type { ExternalEventDelivered } from './external-event.events';
import { payloadState } from './payload';

const EXTERNAL_EVENTS_PROCESS = 'external-events';

export interface ExternalEventsDeps {
  /** binds through the process's engine, whose cache debug chat reads: it sees the bound event without a read */
  engine: ConversationEngine;
  clock: Clock;
  newId: () => string;
  logger: Logger;
  /** called after a conversation took an event in (channels that push answers listen here) */
  onBound?: (conversationId: string) => void;
  /** holds binding back while the webhook is busy (bind-pacer.ts) */
  pace?: Pace;
}

/**
 * Binds each recorded delivery to the conversation awaiting it: the payload goes into the
 * conversation's state under `external_events.<name>` and, while the conversation is open, the
 * agent answers it (event-turn.ts) as a delayed response. The conversation decider makes it
 * exactly once (an id already received decides nothing) and the command's idempotency key is the
 * delivery's event id, so a replay after a crash appends nothing twice.
 */
export function externalEventsProcessManager({
  engine,
  clock,
  newId,
  logger,
  onBound,
  pace,
}: ExternalEventsDeps): ProcessManager {
  const bind = async (event: RecordedEvent<ExternalEventDelivered>): Promise<void> => {
    const d = event.data;
    const receivedAt = clock.nowIso();
    const payloadOf = () =>
      payloadState(
        d.eventId,
        d.contentType,
        bodyKindOf(d.contentType) ?? 'text',
        Buffer.from(d.body, 'base64'),
        receivedAt,
      );
    const respond = (content: ServedContent, state: Record<string, unknown>, language: string) =>
      eventTurn({ name: d.name, topics: content.topics, state, receivedAt, language, newId });
    try {
      const context = {
        actor: `system:${EXTERNAL_EVENTS_PROCESS}`,
        correlationId: event.metadata.correlationId,
        causationId: event.id,
        idempotencyKey: event.id,
      };
      const bound = await engine.receiveExternalEvent(
        d.conversationId,
        { eventId: d.eventId, name: d.name, contentType: d.contentType, body: d.body, receivedAt },
        payloadOf,
        respond,
        context,
      );
      if (!bound) return;
    } catch (error) {
      // A refusal is final (the id is not awaited there): retrying would stall every later delivery.
      if (error instanceof DomainError) {
        logger.warn({ err: error, eventId: d.eventId, conversationId: d.conversationId }, 'external event not bound');
        return;
      }
      throw error;
    }
    onBound?.(d.conversationId);
  };

  // Deliveries to different conversations bind concurrently, four starting per turn of the event
  // loop (process-manager.ts); one conversation's in log order. A batch of 16 bounds how many
  // bindings, and their conversations' states, are in flight at once.
  return {
    name: EXTERNAL_EVENTS_PROCESS,
    handles: { ExternalEventDelivered: bind },
    partitionBy: (event) => (event.data as ExternalEventDelivered).conversationId,
    pace,
    maxBatchSize: 16,
  };
}
