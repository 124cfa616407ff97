import { Global, Module } from '@nestjs/common';
import { AccountCommands } from './account-commands';
import { AccountsService } from './accounts.service';
import { AdminController } from './admin.controller';
import { ApiKeysController, ApiKeySelfController } from './api-keys.controller';
import { ApiKeysService } from './api-keys.service';
import { DataAccessController } from './data-access.controller';
import { DataAccessService } from './data-access.service';

@Global()
@Module({
  controllers: [AdminController, ApiKeysController, ApiKeySelfController, DataAccessController],
  providers: [AccountCommands, AccountsService, ApiKeysService, DataAccessService],
  exports: [AccountsService, DataAccessService],
})
export class AccountsModule {}
