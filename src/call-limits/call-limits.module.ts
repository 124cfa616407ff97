import { Module } from '@nestjs/common';
import { CommandsModule } from '../commands/commands.module';
import { ReadModelsModule } from '../read-models/read-models.module';
import { CallLimitsController } from './call-limits.controller';
import { CallLines } from './call-lines';

/** The account's concurrent-call limit and the lines its calls hold (contract §17). */
@Module({
  imports: [CommandsModule, ReadModelsModule],
  controllers: [CallLimitsController],
  providers: [CallLines],
  exports: [CallLines],
})
export class CallLimitsModule {}
