import { Inject, Injectable, type OnModuleInit } from '@nestjs/common';
import { Clock } from '../platform/clock/clock';
import { CONFIG, type Config } from '../platform/config/config';
import { RunsBehindTheLog, type BehindTheLogWork } from '../process-managers/behind-the-log';
import { Timers, type DueTimer, type TimerHandler } from '../process-managers/timers';
import { AlertEvaluator } from './alert-evaluator';

const OWNER = 'alerts';

/**
 * Evaluation rounds every ALERT_EVAL_INTERVAL_S on the platform clock, as durable timers: a round's
 * timer id is its due time, so every process schedules the same one and exactly one runs it (the
 * timer's lease). Each round schedules the first slot after now, so a long pause (or a test moving
 * the clock by an hour) runs one round, not sixty.
 */
@Injectable()
@RunsBehindTheLog()
export class AlertSchedule implements OnModuleInit, BehindTheLogWork {
  readonly timerHandlers: Record<string, TimerHandler> = { [OWNER]: (timer) => this.round(timer) };

  constructor(
    private readonly timers: Timers,
    private readonly evaluator: AlertEvaluator,
    private readonly clock: Clock,
    @Inject(CONFIG) private readonly config: Config,
  ) {}

  async onModuleInit(): Promise<void> {
    await this.scheduleAfter(this.clock.nowMs());
  }

  private async round(timer: DueTimer): Promise<void> {
    await this.evaluator.evaluate();
    await this.scheduleAfter(Date.parse(timer.dueAt));
  }

  private async scheduleAfter(fromMs: number): Promise<void> {
    const interval = this.config.alertEvalIntervalS * 1000;
    const nowMs = this.clock.nowMs();
    const due = fromMs + interval * Math.max(1, Math.ceil((nowMs - fromMs + 1) / interval));
    const dueAt = new Date(due).toISOString();
    await this.timers.schedule({ id: `alerts:evaluate:${dueAt}`, owner: OWNER, dueAt });
  }
}
