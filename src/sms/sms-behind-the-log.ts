import { Injectable } from '@nestjs/common';
import { RunsBehindTheLog, type BehindTheLogWork } from '../process-managers/behind-the-log';
import { SmsConversations } from './sms-conversations';
import { SEND_OWNER, SmsOutbox } from './sms-outbox';
import { SESSION_TIMER_OWNER, SmsSessionTimers } from './sms-session-timers';
import { smsSessionsProcessManager } from './sms-sessions.process-manager';

/** SMS behind the log: the sessions' process manager, the outbox's sends and the sessions' idle timers. */
@Injectable()
@RunsBehindTheLog()
export class SmsBehindTheLog implements BehindTheLogWork {
  readonly processManagers;
  readonly timerHandlers;

  constructor(conversations: SmsConversations, outbox: SmsOutbox, sessionTimers: SmsSessionTimers) {
    this.processManagers = [smsSessionsProcessManager(conversations)];
    this.timerHandlers = { [SEND_OWNER]: outbox.handler, [SESSION_TIMER_OWNER]: sessionTimers.handler };
  }
}
