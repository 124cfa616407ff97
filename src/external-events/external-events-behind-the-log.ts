import { Inject, Injectable } from '@nestjs/common';
import type { Logger } from 'pino';
import { ConversationEngine } from '../conversations/engine/conversation-engine';
import { Clock } from '../platform/clock/clock';
import { IdGenerator } from '../platform/ids/ids';
import { LOGGER } from '../platform/logging/logger';
import { RunsBehindTheLog, type BehindTheLogWork } from '../process-managers/behind-the-log';
import type { ProcessManager } from '../process-managers/process-manager';
import { BindPacer } from './bind-pacer';
import { externalEventsProcessManager } from './external-events.process-manager';

/** External events behind the log: the process manager that binds each delivery to its conversation. */
@Injectable()
@RunsBehindTheLog()
export class ExternalEventsBehindTheLog implements BehindTheLogWork {
  readonly processManagers: ProcessManager[];

  constructor(
    engine: ConversationEngine,
    clock: Clock,
    ids: IdGenerator,
    @Inject(LOGGER) logger: Logger,
    pace: BindPacer,
  ) {
    this.processManagers = [externalEventsProcessManager({ engine, clock, newId: () => ids.uuid(), logger, pace })];
  }
}
