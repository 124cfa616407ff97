import { Inject, Injectable } from '@nestjs/common';
import { Clock } from '../platform/clock/clock';
import type { CallProgress, ReportOptions } from './carrier.port';
import type { OutboundCallCommand } from './outbound-call.decider';
import { OUTBOUND_CALL_COMMANDS, type OutboundCallCommands } from './outbound-call-commands';
import { outboundCallStream } from './outbound-call.events';

/** A carrier's reports, appended to the call's stream (the decider drops late or repeated ones). */
@Injectable()
export class CallProgressRecorder implements CallProgress {
  constructor(
    @Inject(OUTBOUND_CALL_COMMANDS) private readonly calls: OutboundCallCommands,
    private readonly clock: Clock,
  ) {}

  dialing(callSid: string, options: ReportOptions = {}) {
    return this.record(callSid, { type: 'Dial', now: this.at(options) }, options);
  }
  ringing(callSid: string, options: ReportOptions = {}) {
    return this.record(callSid, { type: 'Ring', now: this.at(options) }, options);
  }
  answered(callSid: string, options: ReportOptions = {}) {
    return this.record(callSid, { type: 'Answer', now: this.at(options) }, options);
  }
  ended(callSid: string, end: Parameters<CallProgress['ended']>[1], options: ReportOptions = {}) {
    return this.record(callSid, { type: 'EndCall', ...end, now: this.at(options) }, options);
  }

  private at(options: ReportOptions): string {
    return options.at ?? this.clock.nowIso();
  }

  private async record(callSid: string, command: OutboundCallCommand, options: ReportOptions): Promise<void> {
    const context = { actor: 'system:outbound-calls', correlationId: callSid, idempotencyKey: options.key };
    await this.calls.handle(outboundCallStream(callSid), command, context);
  }
}
