import { Inject, Injectable, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import type { Logger } from 'pino';
import { CONFIG, type Config } from '../config/config';
import { LOGGER } from '../logging/logger';
import { yieldHelperThreads } from './helper-threads';

/** Threads appear after start (libuv's pool on first use, the checkpointer after steady writes): they are lowered this often. */
const HELPER_THREAD_SWEEP_MS = 10_000;

/** Applies HELPER_THREAD_NICENESS (helper-threads.ts) once the app has started, and to threads started since, every so often. */
@Injectable()
export class HelperThreadPriority implements OnApplicationBootstrap, OnApplicationShutdown {
  private timer: NodeJS.Timeout | null = null;

  constructor(
    @Inject(CONFIG) private readonly config: Config,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  onApplicationBootstrap(): void {
    const niceness = this.config.helperThreadNiceness;
    if (niceness <= 0) return;
    const lowered = yieldHelperThreads(niceness);
    this.logger.debug({ lowered, niceness }, 'helper threads yield to the event loop');
    this.timer = setInterval(() => yieldHelperThreads(niceness), HELPER_THREAD_SWEEP_MS);
    this.timer.unref();
  }

  onApplicationShutdown(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }
}
