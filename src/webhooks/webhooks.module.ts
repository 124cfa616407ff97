import { BeforeApplicationShutdown, Injectable, Module, OnApplicationBootstrap } from '@nestjs/common';
import type { DataSource } from 'typeorm';
import { CONFIG, type Config } from '../platform/config/config';
import { PLATFORM_DB } from '../platform/database/platform-database';
import { OutboundHttp } from '../platform/outbound/outbound-http';
import { ReadModels } from '../read-models/read-models.service';
import { DeliveryWorker } from './delivery-worker';
import { openWebhookOutbox } from './open-outbox';
import { WEBHOOK_SENDER, webhookSender } from './sender';
import { WebhookOutbox } from './outbox';
import { SubscribedEndpoints, subscribedEndpoints } from '../../projections/webhook-endpoints/queries';
import { WebhooksBehindTheLog } from './webhooks-behind-the-log';
import { WebhookEndpointsController } from './webhook-endpoints.controller';
import { WebhookEndpointsService } from './webhook-endpoints.service';
import { CommandsModule } from '../commands/commands.module';
import { EventStoreModule } from '../event-store/event-store.module';
import { ReadModelsModule } from '../read-models/read-models.module';
import { ProcessManagersModule } from '../process-managers/process-managers.module';

/** Runs the worker that empties the outbox while the app runs. */
@Injectable()
class DeliveryWorkerLifecycle implements OnApplicationBootstrap, BeforeApplicationShutdown {
  constructor(private readonly worker: DeliveryWorker) {}

  onApplicationBootstrap() {
    this.worker.start();
  }
  async beforeApplicationShutdown() {
    await this.worker.stop();
  }
}

@Module({
  imports: [EventStoreModule, CommandsModule, ReadModelsModule, ProcessManagersModule],
  controllers: [WebhookEndpointsController],
  providers: [
    // SQLite or PostgreSQL, as the platform database is
    { provide: WebhookOutbox, inject: [PLATFORM_DB], useFactory: (db: DataSource) => openWebhookOutbox(db) },
    // a read model's query repository (projections/webhook-endpoints)
    {
      provide: SubscribedEndpoints,
      inject: [ReadModels],
      useFactory: (readModels: ReadModels) => subscribedEndpoints(readModels),
    },
    // the sender's outbound rules come from the configuration (loopback only where allowed)
    {
      provide: WEBHOOK_SENDER,
      inject: [CONFIG],
      useFactory: (config: Config) => webhookSender(new OutboundHttp({ allowLoopback: config.webhookAllowHttp })),
    },
    DeliveryWorker,
    WebhookEndpointsService,
    DeliveryWorkerLifecycle,
    WebhooksBehindTheLog,
  ],
})
export class WebhooksModule {}
