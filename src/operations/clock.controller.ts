import { Body, Controller, HttpCode, Inject, Post, UseGuards } from '@nestjs/common';
import { IsNumber, Max, Min } from 'class-validator';
import { CONFIG, type Config } from '../platform/config/config';
import { ProcessManagers } from '../process-managers/process-managers';
import { Timers } from '../process-managers/timers';
import { OperatorGuard } from '../platform/operator/operator.guard';
import { Clock, ManualClock } from '../platform/clock/clock';

export class AdvanceClockDto {
  @IsNumber({ allowNaN: false, allowInfinity: false })
  @Min(0)
  @Max(10 * 365 * 24 * 3600)
  seconds: number;
}

/** Exists only with PARLEY_TEST_CLOCK=1 (contract §1). */
@Controller('admin/v1/clock')
@UseGuards(OperatorGuard)
export class ClockController {
  constructor(
    private readonly clock: Clock,
    private readonly timers: Timers,
    private readonly processManagers: ProcessManagers,
    @Inject(CONFIG) private readonly config: Config,
  ) {}

  /**
   * Moves the manual clock and runs every timer that fell due, before answering; and, bounded,
   * what they set off behind the log (an SMS session a timer ended ends its conversation there),
   * so that what the clock ended reads ended once it answers (issue 47).
   */
  @Post('advance')
  @HttpCode(200)
  async advance(@Body() body: AdvanceClockDto) {
    const now = (this.clock as ManualClock).advance(body.seconds);
    await this.timers.runDue();
    await this.processManagers.caughtUpWithLog(this.config.readYourWritesTimeoutMs);
    return { now: now.toISOString() };
  }
}
