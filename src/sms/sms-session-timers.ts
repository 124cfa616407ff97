import { Inject, Injectable } from '@nestjs/common';
import { Clock } from '../platform/clock/clock';
import { Timers, type DueTimer } from '../process-managers/timers';
import { idleDueAt, warningDueAt } from './sms-session.decider';
import { SMS_SESSION_COMMANDS, type SmsSessionCommands } from './sms-session-commands';

export const SESSION_TIMER_OWNER = 'sms-session';
const IDLE_WARNING_TEXT = 'Are you still there? Reply within 10 minutes to keep this conversation open.';

interface SessionTimer {
  stream: string;
  kind: 'idle' | 'warning';
  generation: number;
}

const timerId = (t: SessionTimer) => `sms-${t.kind}:${t.stream}:${t.generation}`;

/**
 * The idle rules of interface.md "SMS session" as durable timers on the platform clock: 24 h after
 * the user's latest message the warning, 10 min after the warning the end. A timer carries the
 * generation it was scheduled for; the decider ignores it once activity has moved on.
 */
@Injectable()
export class SmsSessionTimers {
  constructor(
    private readonly timers: Timers,
    private readonly clock: Clock,
    @Inject(SMS_SESSION_COMMANDS) private readonly sessions: SmsSessionCommands,
  ) {}

  async afterUserMessage(stream: string, generation: number, receivedAt: string): Promise<void> {
    await this.timers.schedule({
      id: timerId({ stream, kind: 'idle', generation }),
      owner: SESSION_TIMER_OWNER,
      dueAt: idleDueAt(receivedAt),
      payload: { stream, kind: 'idle', generation },
    });
    // the timers this message made stale would only fire to do nothing: drop them
    for (const stale of [generation - 1, generation - 2]) {
      await this.timers.cancel(timerId({ stream, kind: 'idle', generation: stale }));
      await this.timers.cancel(timerId({ stream, kind: 'warning', generation: stale }));
    }
  }

  async afterWarning(stream: string, generation: number, sentAt: string): Promise<void> {
    await this.timers.schedule({
      id: timerId({ stream, kind: 'warning', generation }),
      owner: SESSION_TIMER_OWNER,
      dueAt: warningDueAt(sentAt),
      payload: { stream, kind: 'warning', generation },
    });
  }

  readonly handler = async (timer: DueTimer<SessionTimer>): Promise<void> => {
    const { stream, kind, generation } = timer.payload;
    const now = this.clock.nowIso();
    const command =
      kind === 'idle'
        ? { type: 'IdleTimerFired' as const, generation, warningText: IDLE_WARNING_TEXT, now }
        : { type: 'WarningTimerFired' as const, generation, now };
    await this.sessions.handle(stream, command, {
      actor: 'system:sms',
      correlationId: timer.id,
      idempotencyKey: `timer:${timer.id}`,
    });
  };
}
