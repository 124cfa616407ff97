import {
  BeforeApplicationShutdown,
  Inject,
  Injectable,
  Module,
  OnApplicationBootstrap,
  OnModuleInit,
} from '@nestjs/common';
import type { DataSource } from 'typeorm';
import { EVENT_STORE, type EventStore } from '../event-store/event-store.port';
import { Clock } from '../platform/clock/clock';
import { CONFIG, type Config } from '../platform/config/config';
import { PLATFORM_DB } from '../platform/database/platform-database';
import { OutboundHttp } from '../platform/outbound/outbound-http';
import { ProcessManagers } from '../process-managers/process-managers';
import { ReadModels } from '../read-models/read-models.service';
import { DeliveryWorker } from './delivery-worker';
import { openWebhookOutbox } from './open-outbox';
import { WEBHOOK_SENDER, webhookSender } from './sender';
import { WebhookOutbox } from './outbox';
import {
  WEBHOOK_ENDPOINTS_READ_MODEL,
  SubscribedEndpoints,
  subscribedEndpoints,
} from '../../projections/webhook-endpoints/queries';
import { WebhookEndpointsController } from './webhook-endpoints.controller';
import { WebhookEndpointsService } from './webhook-endpoints.service';
import { webhookEventsProcessManager } from './webhook-events.process-manager';
import { CommandsModule } from '../commands/commands.module';
import { EventStoreModule } from '../event-store/event-store.module';
import { ReadModelsModule } from '../read-models/read-models.module';
import { ProcessManagersModule } from '../process-managers/process-managers.module';

/** Registers the process manager that fills the outbox, and runs the worker that empties it. */
@Injectable()
class WebhooksLifecycle implements OnModuleInit, OnApplicationBootstrap, BeforeApplicationShutdown {
  constructor(
    private readonly processManagers: ProcessManagers,
    private readonly worker: DeliveryWorker,
    private readonly outbox: WebhookOutbox,
    private readonly endpoints: SubscribedEndpoints,
    private readonly readModels: ReadModels,
    private readonly clock: Clock,
    @Inject(EVENT_STORE) private readonly store: EventStore,
  ) {}

  onModuleInit() {
    this.processManagers.register(
      webhookEventsProcessManager({
        store: this.store,
        outbox: this.outbox,
        endpoints: this.endpoints,
        endpointsApplied: (position) => this.readModels.waitFor(position, [WEBHOOK_ENDPOINTS_READ_MODEL]),
        clock: this.clock,
        onQueued: () => this.worker.poke(),
      }),
    );
  }
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
    WebhooksLifecycle,
  ],
})
export class WebhooksModule {}
