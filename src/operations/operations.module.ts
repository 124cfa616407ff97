import { DynamicModule, Module } from '@nestjs/common';
import { EventStoreModule } from '../event-store/event-store.module';
import { SubscriptionsModule } from '../subscriptions/subscriptions.module';
import { ReadModelsModule } from '../read-models/read-models.module';
import { ProcessManagersModule } from '../process-managers/process-managers.module';
import { ClockController } from './clock.controller';
import { HealthController } from './health.controller';
import { MetricsController } from './metrics.controller';
import { ReadModelsAdminController } from './read-models-admin.controller';

/**
 * The operator's routes about the process itself: health, metrics, the read models and the test clock. They read
 * the store, the read models and the timers, so they sit above those layers, not in platform/.
 */
@Module({})
export class OperationsModule {
  /** The clock route exists only under the test clock (contract §1). */
  static forRoot(options: { testClock: boolean }): DynamicModule {
    return {
      module: OperationsModule,
      imports: [EventStoreModule, SubscriptionsModule, ReadModelsModule, ProcessManagersModule],
      controllers: [
        HealthController,
        MetricsController,
        ReadModelsAdminController,
        ...(options.testClock ? [ClockController] : []),
      ],
    };
  }
}
