import { Module } from '@nestjs/common';
import { CommandsModule } from '../commands/commands.module';
import { DNI_POOL_COMMANDS, dniPoolCommands } from './dni-pool-commands';

/** The DNI pools' command handler, for DniModule and AccountsModule, which both write pool streams. */
@Module({
  imports: [CommandsModule],
  providers: [dniPoolCommands],
  exports: [DNI_POOL_COMMANDS],
})
export class DniPoolsModule {}
