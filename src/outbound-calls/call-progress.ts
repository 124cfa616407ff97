import { Inject, Injectable } from '@nestjs/common';
import { EVENT_STORE, type EventStore } from '../event-store/event-store.port';
import { Clock } from '../platform/clock/clock';
import { AggregateCache } from '../commands/aggregate-cache';
import { handleCommand } from '../commands/command-handler';
import type { CallProgress, ReportOptions } from './carrier.port';
import { outboundCallDecider, type OutboundCallCommand } from './outbound-call.decider';
import { outboundCallStream } from './outbound-call.events';

/** A carrier's reports, appended to the call's stream (the decider drops late or repeated ones). */
@Injectable()
export class CallProgressRecorder implements CallProgress {
  private readonly cache = new AggregateCache(2000);

  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
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
    await handleCommand(
      this.store,
      this.clock,
      outboundCallStream(callSid),
      outboundCallDecider,
      command,
      context,
      this.cache,
    );
  }
}
