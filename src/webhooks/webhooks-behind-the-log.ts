import { Inject, Injectable } from '@nestjs/common';
import { EVENT_STORE, type EventStore } from '../event-store/event-store.port';
import { Clock } from '../platform/clock/clock';
import { RunsBehindTheLog, type BehindTheLogWork } from '../process-managers/behind-the-log';
import type { ProcessManager } from '../process-managers/process-manager';
import { ReadModels } from '../read-models/read-models.service';
import { SubscribedEndpoints, WEBHOOK_ENDPOINTS_READ_MODEL } from '../../projections/webhook-endpoints/queries';
import { DeliveryWorker } from './delivery-worker';
import { WebhookOutbox } from './outbox';
import { webhookEventsProcessManager } from './webhook-events.process-manager';

/** Webhooks behind the log: the process manager that fills the outbox the delivery worker empties. */
@Injectable()
@RunsBehindTheLog()
export class WebhooksBehindTheLog implements BehindTheLogWork {
  readonly processManagers: ProcessManager[];

  constructor(
    @Inject(EVENT_STORE) store: EventStore,
    outbox: WebhookOutbox,
    endpoints: SubscribedEndpoints,
    readModels: ReadModels,
    clock: Clock,
    worker: DeliveryWorker,
  ) {
    this.processManagers = [
      webhookEventsProcessManager({
        store,
        outbox,
        endpoints,
        endpointsApplied: (position) => readModels.waitFor(position, [WEBHOOK_ENDPOINTS_READ_MODEL]),
        clock,
        onQueued: () => worker.poke(),
      }),
    ];
  }
}
