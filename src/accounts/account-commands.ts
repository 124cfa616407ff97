import { Injectable } from '@nestjs/common';
import { Clock } from '../platform/clock/clock';
import type { CommandContext } from '../commands/command-context';
import type { CommandHandler } from '../commands/command-handler';
import { Commands } from '../commands/commands';
import { isReadModelLagging } from '../read-models/failures/read-model-lagging';
import { ReadModels } from '../read-models/read-models.service';
import { accountDecider, type AccountCommand, type AccountState } from './account.decider';
import { accountStream, type AccountEvent } from './account.events';

type WithoutNow<C> = C extends unknown ? Omit<C, 'now'> : never;

/** Sends a command to an account's stream and waits until the named read models show it. */
@Injectable()
export class AccountCommands {
  /** the one handler of account streams */
  private readonly accounts: CommandHandler<AccountState, AccountCommand, AccountEvent>;

  constructor(
    commands: Commands,
    private readonly clock: Clock,
    private readonly readModels: ReadModels,
  ) {
    this.accounts = commands.for(accountDecider);
  }

  async execute(
    accountId: string,
    command: WithoutNow<AccountCommand>,
    context: CommandContext,
    readModels: string[],
  ): Promise<AccountEvent[]> {
    const full = { ...command, now: this.clock.nowIso() } as AccountCommand;
    const result = await this.accounts.handle(accountStream(accountId), full, context);
    await this.readModels.waitFor(result.position, readModels);
    return result.events;
  }

  /**
   * For a command whose answer reveals a secret once (a key value, a connector token): the answer
   * is built from the events, and a read model that lags past the wait does not turn it into a
   * 503, which would lose the secret of a change that was made. The credential works as soon as
   * the read model shows it, moments later.
   */
  async executeRevealing(
    accountId: string,
    command: WithoutNow<AccountCommand>,
    context: CommandContext,
    readModels: string[],
  ): Promise<AccountEvent[]> {
    const full = { ...command, now: this.clock.nowIso() } as AccountCommand;
    const result = await this.accounts.handle(accountStream(accountId), full, context);
    try {
      await this.readModels.waitFor(result.position, readModels);
    } catch (error) {
      if (!isReadModelLagging(error)) throw error;
    }
    return result.events;
  }
}
