import { Module } from '@nestjs/common';
import { CallLimitsController } from './call-limits.controller';
import { CallLines } from './call-lines';

/** The account's concurrent-call limit and the lines its calls hold (contract §17). */
@Module({
  controllers: [CallLimitsController],
  providers: [CallLines],
  exports: [CallLines],
})
export class CallLimitsModule {}
