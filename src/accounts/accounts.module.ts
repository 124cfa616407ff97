import { Module } from '@nestjs/common';
import { AgentDirectoryModule } from './agent-directory.module';
import { CommandsModule } from '../commands/commands.module';
import { DniPoolsModule } from '../dni/dni-pools.module';
import { ReadModelsModule } from '../read-models/read-models.module';
import { AccountCommands } from './account-commands';
import { AccountsService } from './accounts.service';
import { AdminController } from './admin.controller';
import { ApiKeysController, ApiKeySelfController } from './api-keys.controller';
import { ApiKeysService } from './api-keys.service';
import { DataAccessController } from './data-access.controller';
import { DataAccessService } from './data-access.service';

@Module({
  imports: [CommandsModule, DniPoolsModule, ReadModelsModule, AgentDirectoryModule],
  controllers: [AdminController, ApiKeysController, ApiKeySelfController, DataAccessController],
  providers: [AccountCommands, AccountsService, ApiKeysService, DataAccessService],
  exports: [AccountsService, DataAccessService],
})
export class AccountsModule {}
