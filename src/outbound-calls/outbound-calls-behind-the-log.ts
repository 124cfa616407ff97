import { Inject, Injectable } from '@nestjs/common';
import { RunsBehindTheLog, type BehindTheLogWork } from '../process-managers/behind-the-log';
import type { ProcessManager } from '../process-managers/process-manager';
import type { TimerHandler } from '../process-managers/timers';
import { CallConversations } from './call-conversation';
import { CallProgressRecorder } from './call-progress';
import { CALL_PROGRESS, CARRIER, type Carrier } from './carrier.port';
import { OUTBOUND_CALL_COMMANDS, type OutboundCallCommands } from './outbound-call-commands';
import { outboundCallsProcessManager, watchdogHandler } from './outbound-calls.process-manager';
import { OutboundCallsService } from './outbound-calls.service';
import { WATCHDOG_OWNER } from './watchdog';

const system = (cause: string) => ({
  actor: 'system:outbound-calls',
  correlationId: cause,
  idempotencyKey: `outbound-calls:release:${cause}`,
});

/** Outbound calls behind the log: the process manager between the log and the carrier, and the calls' watchdog. */
@Injectable()
@RunsBehindTheLog()
export class OutboundCallsBehindTheLog implements BehindTheLogWork {
  readonly processManagers: ProcessManager[];
  readonly timerHandlers: Record<string, TimerHandler>;

  constructor(
    service: OutboundCallsService,
    conversations: CallConversations,
    @Inject(CARRIER) carrier: Carrier,
    @Inject(CALL_PROGRESS) progress: CallProgressRecorder,
    @Inject(OUTBOUND_CALL_COMMANDS) calls: OutboundCallCommands,
  ) {
    this.processManagers = [
      outboundCallsProcessManager({
        calls,
        carrier,
        conversations,
        releaseLine: (accountId, callSid, cause) => service.releaseLine(accountId, callSid, system(cause.id)),
      }),
    ];
    this.timerHandlers = {
      [WATCHDOG_OWNER]: watchdogHandler({
        calls,
        ended: (callSid, key) => progress.ended(callSid, { reason: 'error', hungUpBy: null, sipStatus: null }, { key }),
        releaseLine: (accountId, callSid) => service.releaseLine(accountId, callSid, system(`watchdog:${callSid}`)),
      }),
    };
  }
}
