import { Module } from '@nestjs/common';
import { EventStoreModule } from '../event-store/event-store.module';
import { Commands } from './commands';

/** The command path over the event store: one Commands per app, which makes each stream family's handler. */
@Module({
  imports: [EventStoreModule],
  providers: [Commands],
  exports: [Commands],
})
export class CommandsModule {}
