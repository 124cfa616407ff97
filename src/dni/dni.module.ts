import { Module } from '@nestjs/common';
import { ReadModelsModule } from '../read-models/read-models.module';
import { DniController } from './dni.controller';
import { DniPoolsModule } from './dni-pools.module';
import { DniService } from './dni.service';

/** DNI pools and reservations (contract §18); inbound calls read the reservations. */
@Module({
  imports: [ReadModelsModule, DniPoolsModule],
  controllers: [DniController],
  providers: [DniService],
  exports: [DniService],
})
export class DniModule {}
