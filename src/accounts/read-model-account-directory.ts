import { Injectable } from '@nestjs/common';
import { accountsQueries, type AccountsQueries } from '../../projections/accounts/queries';
import { andThen, type Awaitable } from '../platform/awaitable';
import type { AccountDirectory } from '../platform/auth/account-directory';
import { ReadModels } from '../read-models/read-models.service';

/** The platform's AccountDirectory over the accounts read model. */
@Injectable()
export class ReadModelAccountDirectory implements AccountDirectory {
  private readonly accounts: AccountsQueries;

  constructor(readModels: ReadModels) {
    this.accounts = accountsQueries(readModels);
  }

  regionOf(accountId: string): Awaitable<string | null> {
    return andThen(this.accounts.regionOf(accountId), ({ row }) => row?.region ?? null);
  }
}
