import { Module } from '@nestjs/common';
import { AccountsModule } from '../accounts/accounts.module';
import { EventStoreModule } from '../event-store/event-store.module';
import { AuditExportController } from './audit-export.controller';

/** A project's whole audit trail over HTTP (GET /v3/{account}/{project}/events); `npm run audit` writes it to a file. */
@Module({
  imports: [EventStoreModule, AccountsModule],
  controllers: [AuditExportController],
})
export class AuditExportModule {}
