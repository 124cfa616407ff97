import { hash } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { EVENT_STORE, type EventStore } from '../event-store/event-store.port';
import { Clock } from '../platform/clock/clock';
import type { CommandContext } from '../commands/command-context';
import { badRequest, DomainError } from '../platform/errors/domain-error';
import { uuidv7 } from '../platform/ids/ids';
import { parseAccountId, parseAgentId } from '../platform/ids/prefixed-ids';
import { ReadModels } from '../read-models/read-models.service';
import { AwaitedEvents, type AwaitedEvent } from './awaited-events';
import { BindPacer } from './bind-pacer';
import { bodyKindOf, extractEventId } from './event-id';
import { externalEventStream, type ExternalEventDelivered } from './external-event.events';
import { recordDelivery } from './record-delivery';
import type { WebhookQuery } from './webhook-query';
import { EXTERNAL_EVENTS_READ_MODEL } from '../../projections/external-events/queries';

export interface Delivery {
  query: WebhookQuery;
  rawQuery: Record<string, unknown>;
  headers: Record<string, string | string[] | undefined>;
  contentType: string;
  body: Buffer;
}

/**
 * Takes an external event in: finds its id where the sender said, checks that a conversation of
 * this project awaits it, and records the delivery durably. Binding it to the conversation and
 * the agent's answer happen behind the log (external-events.process-manager.ts).
 */
@Injectable()
export class ExternalEventsService {
  private readonly awaited: AwaitedEvents;

  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    private readonly readModels: ReadModels,
    private readonly clock: Clock,
    private readonly pacer: BindPacer,
  ) {
    this.awaited = new AwaitedEvents(readModels);
  }

  async deliver(d: Delivery, context: CommandContext): Promise<{ event_id: string; status: 'queued' }> {
    // on arrival, not on completion: a slow commit must not read as a quiet webhook
    const answered = this.pacer.intake();
    try {
      return await this.take(d, context);
    } finally {
      answered();
    }
  }

  private async take(d: Delivery, context: CommandContext): Promise<{ event_id: string; status: 'queued' }> {
    const kind = bodyKindOf(d.contentType);
    if (kind === null) {
      throw badRequest(
        'UNSUPPORTED_CONTENT_TYPE',
        'Content-Type must be application/json, application/x-www-form-urlencoded, application/xml or text/plain',
      );
    }
    const extracted = extractEventId({
      location: d.query.location,
      path: d.query.path,
      headers: d.headers,
      query: d.rawQuery,
      kind,
      body: d.body,
    });
    if (!extracted.ok) throw badRequest(extracted.code, extracted.message);
    const { eventId } = extracted;
    const accountId = parseAccountId(d.query.accountId);
    const agentId = parseAgentId(d.query.projectId);
    const awaited = await this.findAwaited(eventId);
    // Another project's id reads as unknown: ids say nothing about conversations one cannot see.
    if (!awaited || awaited.agentId !== agentId || awaited.accountId !== accountId) {
      throw new DomainError(
        'EXTERNAL_EVENT_UNKNOWN',
        `no conversation of this project awaits the external event id ${JSON.stringify(eventId)}`,
        400,
      );
    }
    // one-shot: a Hash object per delivery cost more than hashing a small body (a body is at most 1 MiB)
    const bodySha256 = hash('sha256', Buffer.concat([Buffer.from(`${d.contentType}\n`), d.body]), 'hex');
    const data: ExternalEventDelivered = {
      eventId,
      accountId,
      agentId,
      conversationId: awaited.conversationId,
      name: awaited.name,
      contentType: d.contentType,
      body: d.body.toString('base64'),
      bodySha256,
      deliveredAt: this.clock.nowIso(),
    };
    await recordDelivery(this.store, externalEventStream(agentId, eventId), {
      id: uuidv7(),
      type: 'ExternalEventDelivered',
      data,
      metadata: {
        schemaVersion: 1,
        actor: context.actor,
        correlationId: context.correlationId,
        causationId: null,
        occurredAt: data.deliveredAt,
      },
    });
    return { event_id: eventId, status: 'queued' };
  }

  /** A miss is final only once the read models have caught up with the log (bounded wait). */
  private async findAwaited(eventId: string): Promise<AwaitedEvent | null> {
    const found = await this.awaited.find(eventId);
    if (found) return found;
    await this.readModels.waitFor(await this.store.headPosition(), [EXTERNAL_EVENTS_READ_MODEL]);
    return this.awaited.find(eventId);
  }
}
