import type { ConversationEvent } from '../conversations/conversation.events';
import type { ConversationEngine } from '../conversations/engine/conversation-engine';
import type { RecordedEvent } from '../event-store/event-store.port';
import type { Clock } from '../platform/clock/clock';
import type { ProcessManager } from '../process-managers/process-manager';
import type { DueTimer, Timers } from '../process-managers/timers';
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
export class ChatIdleTimers {
  constructor(
    private readonly timers: Timers,
    private readonly engine: ConversationEngine,
    private readonly clock: Clock,
    private readonly idleMs: number,
  ) {}

  register(): void {
    this.timers.handle(CHAT_IDLE_OWNER, (timer) => this.expire(timer));
  }

  processManager(): ProcessManager {
    return {
      name: 'chat-api-idle',
      wants: (event: RecordedEvent<Started>) => event.data.conversationId.startsWith(CHAT_ID_PREFIX),
      handles: {
        ConversationStarted: (event: RecordedEvent<Started>) =>
          this.schedule(event.data.conversationId, Date.parse(event.data.startedAt) + this.idleMs),
      },
    };
  }

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
