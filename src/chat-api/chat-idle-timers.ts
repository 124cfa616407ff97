import { Inject, Injectable } from '@nestjs/common';
import type { ConversationEvent } from '../conversations/conversation.events';
import { ConversationEngine } from '../conversations/engine/conversation-engine';
import type { RecordedEvent } from '../event-store/event-store.port';
import { Clock } from '../platform/clock/clock';
import { CONFIG, type Config } from '../platform/config/config';
import { RunsBehindTheLog, type BehindTheLogWork } from '../process-managers/behind-the-log';
import type { ProcessManager } from '../process-managers/process-manager';
import { Timers, type DueTimer, type TimerHandler } from '../process-managers/timers';
import { CHAT_ID_PREFIX } from './chat-answer';

const CHAT_IDLE_OWNER = 'chat-api-idle';

type Started = Extract<ConversationEvent, { type: 'ConversationStarted' }>['data'];

interface IdlePayload {
  conversationId: string;
}

/**
 * Idle Chat API conversations end after CHAT_IDLE_S on the platform clock (contract §16), on a
 * durable timer: a process manager schedules one when a chat starts (so a crash between the start
 * and its timer loses nothing), and a timer that fires while the chat has seen turns since
 * schedules the next at the new deadline instead of one timer per turn.
 */
@Injectable()
@RunsBehindTheLog()
export class ChatIdleTimers implements BehindTheLogWork {
  private readonly idleMs: number;

  constructor(
    private readonly timers: Timers,
    private readonly engine: ConversationEngine,
    private readonly clock: Clock,
    @Inject(CONFIG) config: Config,
  ) {
    this.idleMs = config.chatIdleS * 1000;
  }

  readonly timerHandlers: Record<string, TimerHandler> = {
    [CHAT_IDLE_OWNER]: (timer: DueTimer<IdlePayload>) => this.expire(timer),
  };

  readonly processManagers: ProcessManager[] = [
    {
      name: 'chat-api-idle',
      wants: (event: RecordedEvent<Started>) => event.data.conversationId.startsWith(CHAT_ID_PREFIX),
      handles: {
        ConversationStarted: (event: RecordedEvent<Started>) =>
          this.schedule(event.data.conversationId, Date.parse(event.data.startedAt) + this.idleMs),
      },
    },
  ];

  private schedule(conversationId: string, dueMs: number): Promise<void> {
    const dueAt = new Date(dueMs).toISOString();
    return this.timers.schedule({
      id: `${CHAT_IDLE_OWNER}:${conversationId}:${dueAt}`,
      owner: CHAT_IDLE_OWNER,
      dueAt,
      payload: { conversationId } satisfies IdlePayload,
    });
  }

  private async expire(timer: DueTimer<IdlePayload>): Promise<void> {
    const { conversationId } = timer.payload;
    const state = await this.engine.current(conversationId);
    if (!state.exists || state.ended) return;
    const deadline = Date.parse(state.lastActivityAt) + this.idleMs;
    if (deadline > this.clock.nowMs()) return this.schedule(conversationId, deadline);
    await this.engine.end(conversationId, 'timeout', {
      actor: 'system:chat-api',
      correlationId: timer.id,
      idempotencyKey: timer.id,
    });
  }
}
