import { Module } from '@nestjs/common';
import { AccountsModule } from '../accounts/accounts.module';
import { EventStoreModule } from '../event-store/event-store.module';
import { ReadModelsModule } from '../read-models/read-models.module';
import { AnalyticsController } from './analytics.controller';
import { AnalyticsService } from './analytics.service';

@Module({
  imports: [EventStoreModule, ReadModelsModule, AccountsModule],
  controllers: [AnalyticsController],
  providers: [AnalyticsService],
})
export class AnalyticsModule {}
