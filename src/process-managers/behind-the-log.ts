import { DiscoveryService } from '@nestjs/core';
import type { ProcessManager } from './process-manager';
import type { TimerHandler } from './timers';

/**
 * What a context runs behind the log: process managers that react to events, and handlers for the
 * durable timers it schedules, by owner. A provider declares it and carries `@RunsBehindTheLog()`;
 * the app finds every such provider through DI (process-managers.module.ts) and starts them with
 * the read models, so no context wires its own at start.
 */
export interface BehindTheLogWork {
  readonly processManagers?: readonly ProcessManager[];
  readonly timerHandlers?: Readonly<Record<string, TimerHandler>>;
}

/** Marks a provider that implements BehindTheLogWork. */
export const RunsBehindTheLog = DiscoveryService.createDecorator<void>();
