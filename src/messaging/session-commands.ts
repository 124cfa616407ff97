import { Injectable } from '@nestjs/common';
import type { CommandContext } from '../commands/command-context';
import type { CommandHandler, CommandResult, Folded } from '../commands/command-handler';
import { Commands } from '../commands/commands';
import { sessionDecider, type SessionCommand, type SessionState } from './session.decider';
import { sessionStream, type SessionEvent } from './session.events';

/** Commands on session streams, with the folded states of recently used sessions kept in memory. */
@Injectable()
export class SessionCommands {
  /** the one handler of session streams */
  private readonly sessions: CommandHandler<SessionState, SessionCommand, SessionEvent>;

  constructor(commands: Commands) {
    this.sessions = commands.for(sessionDecider, { cache: { capacity: 20_000 } });
  }

  execute(
    sessionId: string,
    command: SessionCommand,
    context: CommandContext,
  ): Promise<CommandResult<SessionState, SessionEvent>> {
    return this.sessions.handle(sessionStream(sessionId), command, context);
  }

  /** The state with every event stored so far, whoever wrote them (reads what the cache lacks). */
  current(sessionId: string): Promise<Folded<SessionState>> {
    return this.sessions.load(sessionStream(sessionId));
  }
}
