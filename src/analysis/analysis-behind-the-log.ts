import { Inject, Injectable } from '@nestjs/common';
import type { Logger } from 'pino';
import { DeploymentContent } from '../agents/deployment-content';
import { ConversationEngine } from '../conversations/engine/conversation-engine';
import { EVENT_STORE, type EventStore } from '../event-store/event-store.port';
import { LOGGER } from '../platform/logging/logger';
import { RunsBehindTheLog, type BehindTheLogWork } from '../process-managers/behind-the-log';
import type { ProcessManager } from '../process-managers/process-manager';
import { ModelRouter } from '../runtime/llm/model-router';
import { analysisProcessManager } from './analysis.process-manager';

/** Post-call analysis behind the log: the process manager that analyses each ended conversation. */
@Injectable()
@RunsBehindTheLog()
export class AnalysisBehindTheLog implements BehindTheLogWork {
  readonly processManagers: ProcessManager[];

  constructor(
    @Inject(EVENT_STORE) store: EventStore,
    engine: ConversationEngine,
    deployments: DeploymentContent,
    models: ModelRouter,
    @Inject(LOGGER) logger: Logger,
  ) {
    this.processManagers = [analysisProcessManager({ store, engine, deployments, models, logger })];
  }
}
