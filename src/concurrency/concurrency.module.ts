import { Module } from '@nestjs/common';
import { ReadModelsModule } from '../read-models/read-models.module';
import { ConcurrencyController } from './concurrency.controller';
import { ConcurrencyService } from './concurrency.service';

/** The concurrent-calls series (contract §17), read from projections/concurrency. */
@Module({
  imports: [ReadModelsModule],
  controllers: [ConcurrencyController],
  providers: [ConcurrencyService],
})
export class ConcurrencyModule {}
