import type { FactoryProvider } from '@nestjs/common';
import type { CommandHandler } from './command-handler';
import { Commands, type CommandHandlerOptions } from './commands';
import type { Decider, DomainEvent } from './decider';

/**
 * The provider of a stream family that several classes write: each injects `token` and so shares
 * the family's one handler (its queue and its cache) instead of making its own.
 */
export function commandHandlerProvider<State, Command, Event extends DomainEvent>(
  token: symbol,
  decider: Decider<State, Command, Event>,
  options?: CommandHandlerOptions,
): FactoryProvider<CommandHandler<State, Command, Event>> {
  return { provide: token, inject: [Commands], useFactory: (commands: Commands) => commands.for(decider, options) };
}
