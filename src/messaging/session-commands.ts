import { Inject, Injectable } from '@nestjs/common';
import { EVENT_STORE, type EventStore } from '../event-store/event-store.port';
import { Clock } from '../platform/clock/clock';
import { AggregateCache } from '../commands/aggregate-cache';
import type { CommandContext } from '../commands/command-context';
import { handleCommand, load, type CommandResult } from '../commands/command-handler';
import { sessionDecider, type SessionCommand, type SessionState } from './session.decider';
import { sessionStream, type SessionEvent } from './session.events';

/** Commands on session streams, with the folded states of recently used sessions kept in memory. */
@Injectable()
export class SessionCommands {
  private readonly cache = new AggregateCache(20_000);

  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    private readonly clock: Clock,
  ) {}

  execute(
    sessionId: string,
    command: SessionCommand,
    context: CommandContext,
  ): Promise<CommandResult<SessionState, SessionEvent>> {
    return handleCommand(
      this.store,
      this.clock,
      sessionStream(sessionId),
      sessionDecider,
      command,
      context,
      this.cache,
    );
  }

  /** The state with every event stored so far, whoever wrote them (reads what the cache lacks). */
  async current(sessionId: string): Promise<{ state: SessionState; revision: bigint | null }> {
    return load(this.store, sessionStream(sessionId), sessionDecider, this.cache);
  }
}
