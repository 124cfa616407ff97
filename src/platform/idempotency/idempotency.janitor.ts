import { Inject, Injectable, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import type { Logger } from 'pino';
import { Clock } from '../clock/clock';
import { LOGGER } from '../logging/logger';
import { IdempotencyStore } from './idempotency.store';

const EVERY_MS = 10 * 60 * 1000;

/** Deletes idempotency records past their 24 hours, so the table stays the size of a day's POSTs (and, at start, any stored in clear). */
@Injectable()
export class IdempotencyJanitor implements OnApplicationBootstrap, OnApplicationShutdown {
  private timer: NodeJS.Timeout | null = null;

  constructor(
    private readonly store: IdempotencyStore,
    private readonly clock: Clock,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    const dropped = await this.store.dropUnsealed();
    if (dropped > 0) this.logger.info({ dropped }, 'deleted idempotency records stored in clear by an older version');
    this.timer = setInterval(() => {
      this.store
        .purgeExpired(this.clock.now())
        .catch((error: unknown) => this.logger.warn({ err: error }, 'idempotency purge failed'));
    }, EVERY_MS);
    this.timer.unref();
  }

  onApplicationShutdown(): void {
    if (this.timer) clearInterval(this.timer);
  }
}
