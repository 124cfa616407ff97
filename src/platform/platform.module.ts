import { DynamicModule, Global, Inject, Module, OnApplicationShutdown } from '@nestjs/common';
import type { Logger } from 'pino';
import type { DataSource } from 'typeorm';
import { CONFIG, type Config } from './config/config';
import { Clock, ManualClock, SystemClock } from './clock/clock';
import { AuthFailureThrottle } from './auth/auth-failure-throttle';
import { ServerSecret } from './auth/server-secret';
import { openPlatformDatabase, PLATFORM_DB } from './database/platform-database';
import type { PlatformTables } from './database/platform-tables';
import { IdempotencyInterceptor } from './idempotency/idempotency.interceptor';
import { IdempotencyJanitor } from './idempotency/idempotency.janitor';
import { IdempotencyStore } from './idempotency/idempotency.store';
import { IdGenerator, RandomIdGenerator } from './ids/ids';
import { LOGGER } from './logging/logger';
import { OperatorGuard } from './operator/operator.guard';
import { OperatorToken } from './operator/operator-token';
import { Metrics } from './metrics/metrics';
import { ComponentStatus } from './health/component-status';
import { HelperThreadPriority } from './threads/helper-thread-priority';

class PlatformDatabaseCloser implements OnApplicationShutdown {
  constructor(@Inject(PLATFORM_DB) private readonly db: DataSource) {}
  async onApplicationShutdown() {
    if (this.db.isInitialized) await this.db.destroy();
  }
}

/**
 * What every module uses: config, logger, clock, ids, the platform database, operator auth.
 * The one global module: it is built once from the process's configuration (forRoot), and every
 * module needs the config, logger and clock; listing it in each module's imports would say nothing.
 */
@Global()
@Module({})
export class PlatformModule {
  static forRoot(
    config: Config,
    logger: Logger,
    clock: Clock | undefined,
    contextTables: readonly PlatformTables[],
  ): DynamicModule {
    const theClock = clock ?? (config.testClock ? new ManualClock() : new SystemClock());
    // Factories here build values from the configuration (the database, secrets, limits); classes
    // that only need other providers are listed as classes, injected through their constructors.
    const providers = [
      { provide: CONFIG, useValue: config },
      { provide: LOGGER, useValue: logger },
      { provide: Clock, useValue: theClock },
      { provide: IdGenerator, useClass: RandomIdGenerator },
      { provide: OperatorToken, useFactory: () => OperatorToken.resolve(config.operatorToken, config.dataDir, logger) },
      {
        provide: PLATFORM_DB,
        useFactory: () => openPlatformDatabase(config.dataDir, config.databaseUrl, contextTables),
      },
      {
        provide: ServerSecret,
        useFactory: () => ServerSecret.resolve(config.serverSecret ?? undefined, config.dataDir),
      },
      IdempotencyStore,
      Metrics,
      ComponentStatus,
      {
        provide: AuthFailureThrottle,
        useFactory: () => new AuthFailureThrottle(config.authFailureRate, config.authFailureBurst),
      },
      OperatorGuard,
      IdempotencyInterceptor,
      IdempotencyJanitor,
      PlatformDatabaseCloser,
      HelperThreadPriority,
    ];
    return {
      module: PlatformModule,
      providers,
      exports: [
        CONFIG,
        LOGGER,
        Clock,
        IdGenerator,
        OperatorToken,
        ServerSecret,
        AuthFailureThrottle,
        PLATFORM_DB,
        IdempotencyStore,
        OperatorGuard,
        IdempotencyInterceptor,
        Metrics,
        ComponentStatus,
      ],
    };
  }
}
