import { Inject, Injectable } from '@nestjs/common';
import type { Logger } from 'pino';
import { EVENT_STORE, type EventStore, type RecordedEvent, type Subscription } from '../event-store/event-store.port';
import { LOGGER } from '../platform/logging/logger';
import type { Position } from '../event-store/position';
import { isSessionEventType, SESSION_STREAM_PREFIX } from './session.events';
import { toWire, type WireEvent } from './wire';

export type SessionEventsListener = (sessionId: string, events: WireEvent[], recorded: RecordedEvent[]) => void;

const RETRY_MS = 500;

/**
 * Delivers stored session events to the sockets of this process from a subscription to the log,
 * never from the code that appended them: a socket on any process sees an event appended by any
 * other, in log order (which is sequence order within a session). It starts at the head of the
 * log; what came before reaches a socket through its handshake's replay.
 */
@Injectable()
export class SessionFeed {
  private subscription: Subscription | null = null;
  private position: Position | null = null;
  private stopped = false;
  private retry: NodeJS.Timeout | null = null;
  private readonly listeners: SessionEventsListener[] = [];

  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  onEvents(listener: SessionEventsListener): void {
    this.listeners.push(listener);
  }

  async start(): Promise<void> {
    this.stopped = false;
    this.position ??= await this.store.headPosition();
    this.subscribe();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.retry) clearTimeout(this.retry);
    await this.subscription?.stop();
  }

  private subscribe(): void {
    const subscription = this.store.subscribeToAll(
      { after: this.position!, filterTypes: isSessionEventType, maxBatchSize: 1000 },
      (batch) => this.onBatch(batch),
    );
    this.subscription = subscription;
    subscription.done.catch((error: unknown) => {
      if (this.stopped) return;
      this.logger.error({ err: error }, 'messaging feed failed; resubscribing');
      this.retry = setTimeout(() => !this.stopped && this.subscribe(), RETRY_MS);
      this.retry.unref();
    });
  }

  private onBatch(batch: RecordedEvent[]): void {
    // one delivery per session per batch, in order
    const bySession = new Map<string, RecordedEvent[]>();
    for (const event of batch) {
      if (!event.streamId.startsWith(SESSION_STREAM_PREFIX)) continue;
      const sessionId = event.streamId.slice(SESSION_STREAM_PREFIX.length);
      let list = bySession.get(sessionId);
      if (!list) bySession.set(sessionId, (list = []));
      list.push(event);
    }
    for (const [sessionId, recorded] of bySession) {
      const wire = recorded.map(toWire);
      for (const listener of this.listeners) {
        try {
          listener(sessionId, wire, recorded);
        } catch (error) {
          this.logger.error({ err: error, sessionId }, 'messaging feed listener failed');
        }
      }
    }
    this.position = batch[batch.length - 1].position;
  }
}
