import { Inject, Injectable } from '@nestjs/common';
import { EVENT_STORE, type EventStore } from '../event-store/event-store.port';
import type { Position } from '../event-store/position';
import { CONFIG, type Config } from '../platform/config/config';
import { ProcessManagers } from '../process-managers/process-managers';
import { readModelLagging } from '../read-models/failures/read-model-lagging';
import { ReadModels } from '../read-models/read-models.service';
import { conversationStream } from './conversation.events';
import { CONVERSATIONS_READ_MODEL } from '../../projections/conversations/queries';

/** How long a read waits for the channels' process managers to start a conversation handed out just before. */
const PROCESS_MANAGER_WAIT_MS = 1500;

/**
 * Any conversation id an answer hands out is readable at once (contract §2), on every channel, by
 * one rule here rather than one per channel: a read of one conversation first waits, bounded, for
 * the conversations read model to reach the last event of that conversation's stream. Channels
 * that start their conversation behind the log (SMS sessions, calls) have appended what starts it
 * before they answered, so when the stream is not there yet the read waits for the process
 * managers to react to the log as it is, and looks again. An id that never existed costs one
 * stream read and one position check while they are idle.
 *
 * The end is the same rule (issue 47): an answer that says a call or session ended is sent once
 * its conversation reads ended, since a channel that learns of an end on its own stream (a call's
 * status, an SMS session) ends the conversation behind the log.
 */
@Injectable()
export class ReadableAtOnce {
  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    private readonly readModels: ReadModels,
    private readonly processManagers: ProcessManagers,
    @Inject(CONFIG) private readonly config: Config,
  ) {}

  /** Resolves when the read model shows everything appended to the conversation so far (or it does not exist). */
  async conversation(conversationId: string): Promise<void> {
    const last = await this.lastEvent(conversationId);
    if (!last) return;
    // past READ_YOUR_WRITES_TIMEOUT_MS: 503 READ_MODEL_LAGGING, never a 404 for what exists
    await this.readModels.waitFor(last.position, [CONVERSATIONS_READ_MODEL]);
  }

  /**
   * Resolves when the conversation shows the end of its call or session, `endedAt` being the
   * position of the channel's event that ended it and `by` the process manager that ends the
   * conversation on it: that manager has reacted to it (so the conversation's end is appended),
   * and the read model has applied what it appended. Past READ_YOUR_WRITES_TIMEOUT_MS: 503
   * READ_MODEL_LAGGING, never an end its conversation denies.
   */
  async ended(conversationId: string, endedAt: Position, by: string): Promise<void> {
    if (!(await this.processManagers.caughtUpWith(endedAt, this.config.readYourWritesTimeoutMs, [by])))
      throw readModelLagging();
    const last = await this.lastEventNow(conversationId);
    if (last) await this.readModels.waitFor(last.position, [CONVERSATIONS_READ_MODEL]);
  }

  /** Whether the conversation's stream is in the log, once the process managers have reacted to what came before. */
  async inLog(conversationId: string): Promise<boolean> {
    return (await this.lastEvent(conversationId)) !== undefined;
  }

  private async lastEvent(conversationId: string) {
    const last = await this.lastEventNow(conversationId);
    if (last) return last;
    await this.processManagers.caughtUpWithLog(Math.min(PROCESS_MANAGER_WAIT_MS, this.config.readYourWritesTimeoutMs));
    return this.lastEventNow(conversationId);
  }

  private async lastEventNow(conversationId: string) {
    const [last] = await this.store.readStream(conversationStream(conversationId), {
      direction: 'backwards',
      maxCount: 1,
    });
    return last;
  }
}
