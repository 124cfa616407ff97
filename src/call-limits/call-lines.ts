import { Inject, Injectable } from '@nestjs/common';
import { accountsQueries, type AccountsQueries } from '../../projections/accounts/queries';
import { Clock } from '../platform/clock/clock';
import type { CommandContext } from '../commands/command-context';
import type { CommandHandler } from '../commands/command-handler';
import { Commands } from '../commands/commands';
import { CONFIG, type Config } from '../platform/config/config';
import { notFound } from '../platform/errors/domain-error';
import { ReadModels } from '../read-models/read-models.service';
import {
  callLinesDecider,
  callLinesStream,
  effectiveLimit,
  inProgress,
  type CallLineCommand,
  type CallLineEvent,
  type CallLinesState,
} from './call-lines.decider';

/** A full account is told to come back in this many seconds (no line is free before a call ends). */
const LIMIT_RETRY_AFTER_S = 5;

export interface AccountLimits {
  concurrent_calls: number;
  in_progress: number;
}

/**
 * The account's call lines: every call, outbound or inbound, holds one from before it rings until
 * it ends. The limit and the lines are one stream's events, so `in_progress` is read from the log
 * and is exact after a restart.
 */
@Injectable()
export class CallLines {
  /** the one handler of call-line streams */
  private readonly lines: CommandHandler<CallLinesState, CallLineCommand, CallLineEvent>;
  private readonly accounts: AccountsQueries;

  constructor(
    commands: Commands,
    @Inject(CONFIG) private readonly config: Config,
    private readonly clock: Clock,
    readModels: ReadModels,
  ) {
    this.lines = commands.for(callLinesDecider, { cache: { capacity: 1000 } });
    this.accounts = accountsQueries(readModels);
  }

  /** Takes a line for the call, or refuses with 429 CONCURRENT_CALL_LIMIT and Retry-After. */
  async take(accountId: string, callSid: string, context: CommandContext): Promise<void> {
    await this.lines.handle(
      callLinesStream(accountId),
      {
        type: 'TakeLine',
        accountId,
        callSid,
        defaultLimit: this.config.outboundCalls.maxConcurrentPerAccount,
        retryAfterS: LIMIT_RETRY_AFTER_S,
        now: this.clock.nowIso(),
      },
      context,
    );
  }

  async release(accountId: string, callSid: string, context: CommandContext): Promise<void> {
    await this.lines.handle(
      callLinesStream(accountId),
      { type: 'ReleaseLine', accountId, callSid, now: this.clock.nowIso() },
      context,
    );
  }

  async limits(accountId: string): Promise<AccountLimits> {
    // a fresh read: another process may hold lines this one has not seen
    const { state } = await this.lines.load(callLinesStream(accountId));
    return {
      concurrent_calls: effectiveLimit(state, this.config.outboundCalls.maxConcurrentPerAccount),
      in_progress: inProgress(state),
    };
  }

  async setLimit(accountId: string, concurrentCalls: number, context: CommandContext): Promise<AccountLimits> {
    if (!(await this.accounts.account(accountId))) throw notFound('ACCOUNT_NOT_FOUND', 'account not found');
    await this.lines.handle(
      callLinesStream(accountId),
      { type: 'SetLimit', accountId, concurrentCalls, now: this.clock.nowIso() },
      context,
    );
    return this.limits(accountId);
  }
}
