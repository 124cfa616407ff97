import { Module } from '@nestjs/common';
import { EventStoreModule } from '../event-store/event-store.module';
import { ReadModelsModule } from '../read-models/read-models.module';
import { DniController } from './dni.controller';
import { DniService } from './dni.service';

/** DNI pools and reservations (contract §18); inbound calls read the reservations. */
@Module({
  imports: [EventStoreModule, ReadModelsModule],
  controllers: [DniController],
  providers: [DniService],
  exports: [DniService],
})
export class DniModule {}
