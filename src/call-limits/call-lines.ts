import { Inject, Injectable } from '@nestjs/common';
import { accountsQueries, type AccountsQueries } from '../../projections/accounts/queries';
import { EVENT_STORE, type EventStore } from '../event-store/event-store.port';
import { Clock } from '../platform/clock/clock';
import { AggregateCache } from '../commands/aggregate-cache';
import type { CommandContext } from '../commands/command-context';
import { handleCommand, load } from '../commands/command-handler';
import { CONFIG, type Config } from '../platform/config/config';
import { notFound } from '../platform/errors/domain-error';
import { ReadModels } from '../read-models/read-models.service';
import { callLinesDecider, callLinesStream, effectiveLimit, inProgress } from './call-lines.decider';

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
  private readonly cache = new AggregateCache(1000);
  private readonly accounts: AccountsQueries;

  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(CONFIG) private readonly config: Config,
    private readonly clock: Clock,
    readModels: ReadModels,
  ) {
    this.accounts = accountsQueries(readModels);
  }

  /** Takes a line for the call, or refuses with 429 CONCURRENT_CALL_LIMIT and Retry-After. */
  async take(accountId: string, callSid: string, context: CommandContext): Promise<void> {
    await handleCommand(
      this.store,
      this.clock,
      callLinesStream(accountId),
      callLinesDecider,
      {
        type: 'TakeLine',
        accountId,
        callSid,
        defaultLimit: this.config.outboundCalls.maxConcurrentPerAccount,
        retryAfterS: LIMIT_RETRY_AFTER_S,
        now: this.clock.nowIso(),
      },
      context,
      this.cache,
    );
  }

  async release(accountId: string, callSid: string, context: CommandContext): Promise<void> {
    await handleCommand(
      this.store,
      this.clock,
      callLinesStream(accountId),
      callLinesDecider,
      { type: 'ReleaseLine', accountId, callSid, now: this.clock.nowIso() },
      context,
      this.cache,
    );
  }

  async limits(accountId: string): Promise<AccountLimits> {
    // a fresh read: another process may hold lines this one has not seen
    const { state } = await load(this.store, callLinesStream(accountId), callLinesDecider, this.cache);
    return {
      concurrent_calls: effectiveLimit(state, this.config.outboundCalls.maxConcurrentPerAccount),
      in_progress: inProgress(state),
    };
  }

  async setLimit(accountId: string, concurrentCalls: number, context: CommandContext): Promise<AccountLimits> {
    if (!(await this.accounts.account(accountId))) throw notFound('ACCOUNT_NOT_FOUND', 'account not found');
    await handleCommand(
      this.store,
      this.clock,
      callLinesStream(accountId),
      callLinesDecider,
      { type: 'SetLimit', accountId, concurrentCalls, now: this.clock.nowIso() },
      context,
      this.cache,
    );
    return this.limits(accountId);
  }
}
