import type { CommandHandler } from '../commands/command-handler';
import { commandHandlerProvider } from '../commands/command-handler.provider';
import { outboundCallDecider, type OutboundCallCommand, type OutboundCallState } from './outbound-call.decider';
import type { OutboundCallEvent } from './outbound-call.events';

/**
 * The one handler of `outbound-call-` streams: the API queues a call, the carrier's reports move
 * it on, the process manager and the watchdog read it; one cache keeps a call's state between them.
 */
export const OUTBOUND_CALL_COMMANDS = Symbol('OutboundCallCommands');
export type OutboundCallCommands = CommandHandler<OutboundCallState, OutboundCallCommand, OutboundCallEvent>;

export const outboundCallCommands = commandHandlerProvider(OUTBOUND_CALL_COMMANDS, outboundCallDecider, {
  cache: { capacity: 2000 },
});
