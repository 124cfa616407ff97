import { Inject, Injectable } from '@nestjs/common';
import type { RecordedEvent } from '../event-store/event-store.port';
import { Clock } from '../platform/clock/clock';
import { CONFIG, type Config } from '../platform/config/config';
import type { CommandContext } from '../commands/command-context';
import { DomainError } from '../platform/errors/domain-error';
import { RunsBehindTheLog, type BehindTheLogWork } from '../process-managers/behind-the-log';
import type { ProcessManager } from '../process-managers/process-manager';
import { Timers, type DueTimer, type TimerHandler } from '../process-managers/timers';
import { AgentTurns } from './agent-turns';
import { SessionCommands } from './session-commands';
import { SESSION_STREAM_PREFIX, type SessionEventData } from './session.events';

const EXPIRY = 'messaging-session-expiry';
const HANDOFF_TIMEOUT = 'messaging-handoff-timeout';

interface ExpiryPayload {
  sessionId: string;
}
interface HandoffPayload {
  sessionId: string;
  handoffId: string;
}

/**
 * The session's clocks, as durable timers on the platform clock: the idle expiry and the desk's
 * handoff timeout. A process manager schedules them from the events (so a crash between an append
 * and its timer loses nothing); the handlers act through the session decider with the timer id as
 * idempotency key. One expiry timer per session at a time: when it fires early (the session saw
 * events since), it schedules the next at the new deadline instead of one timer per event.
 */
@Injectable()
@RunsBehindTheLog()
export class SessionTimers implements BehindTheLogWork {
  private readonly idleMs: number;
  private readonly handoffTimeoutMs: number;

  constructor(
    private readonly timers: Timers,
    private readonly sessions: SessionCommands,
    private readonly turns: AgentTurns,
    private readonly clock: Clock,
    @Inject(CONFIG) config: Config,
  ) {
    this.idleMs = config.messaging.sessionIdleS * 1000;
    this.handoffTimeoutMs = config.messaging.handoffTimeoutS * 1000;
  }

  readonly timerHandlers: Record<string, TimerHandler> = {
    [EXPIRY]: (timer: DueTimer<ExpiryPayload>) => this.expire(timer),
    [HANDOFF_TIMEOUT]: (timer: DueTimer<HandoffPayload>) => this.timeOutHandoff(timer),
  };

  get processManagers(): ProcessManager[] {
    return [this.scheduler()];
  }

  /** Schedules the timers from the session's events. */
  private scheduler(): ProcessManager {
    const sessionOf = (event: RecordedEvent) => event.streamId.slice(SESSION_STREAM_PREFIX.length);
    return {
      name: 'messaging-session-timers',
      handles: {
        MessagingSessionStarted: async (event: RecordedEvent<SessionEventData<'MessagingSessionStarted'>>) => {
          await this.scheduleExpiry(sessionOf(event), Date.parse(event.data.at) + this.idleMs);
        },
        MessagingHandoffTriggered: async (event: RecordedEvent<SessionEventData<'MessagingHandoffTriggered'>>) => {
          const sessionId = sessionOf(event);
          const dueAt = new Date(Date.parse(event.data.at) + this.handoffTimeoutMs).toISOString();
          await this.timers.schedule({
            id: `${HANDOFF_TIMEOUT}:${sessionId}:${event.data.handoffId}`,
            owner: HANDOFF_TIMEOUT,
            dueAt,
            payload: { sessionId, handoffId: event.data.handoffId } satisfies HandoffPayload,
          });
        },
      },
    };
  }

  private scheduleExpiry(sessionId: string, dueMs: number): Promise<void> {
    const dueAt = new Date(dueMs).toISOString();
    return this.timers.schedule({
      id: `${EXPIRY}:${sessionId}:${dueAt}`,
      owner: EXPIRY,
      dueAt,
      payload: { sessionId } satisfies ExpiryPayload,
    });
  }

  private async expire(timer: DueTimer<ExpiryPayload>): Promise<void> {
    const { sessionId } = timer.payload;
    const { state } = await this.sessions.current(sessionId);
    if (!state.exists || state.phase === 'ended') return;
    const deadline = Date.parse(state.lastEventAt) + this.idleMs;
    if (deadline > this.clock.nowMs()) return this.scheduleExpiry(sessionId, deadline);
    const context = this.context(timer);
    // the conversation first: SESSION_END goes out once it reads ended (issue 47)
    if (state.phase === 'agent' && state.conversationId)
      await this.turns.endConversation(state.conversationId, 'timeout', {
        ...context,
        idempotencyKey: `${timer.id}:conversation`,
      });
    await ignoreGone(
      this.sessions.execute(
        sessionId,
        { type: 'ExpireIfIdle', idleMs: this.idleMs, now: this.clock.nowIso() },
        context,
      ),
    );
  }

  private async timeOutHandoff(timer: DueTimer<HandoffPayload>): Promise<void> {
    const { sessionId, handoffId } = timer.payload;
    await ignoreGone(
      this.sessions.execute(
        sessionId,
        { type: 'TimeOutHandoff', handoffId, now: this.clock.nowIso() },
        this.context(timer),
      ),
    );
  }

  private context(timer: DueTimer): CommandContext {
    return { actor: 'system:messaging-timers', correlationId: timer.id, idempotencyKey: timer.id };
  }
}

/** A session that ended meanwhile needs no timer any more. */
async function ignoreGone(work: Promise<unknown>): Promise<void> {
  try {
    await work;
  } catch (error) {
    if (!(error instanceof DomainError && error.code === 'SESSION_NOT_FOUND')) throw error;
  }
}
