import type { CommandHandler } from '../commands/command-handler';
import { commandHandlerProvider } from '../commands/command-handler.provider';
import {
  smsSessionDecider,
  type SmsSessionCommand,
  type SmsSessionEvent,
  type SmsSessionState,
} from './sms-session.decider';

/**
 * The one handler of `sms-session-` streams. The SMS API, the session timers and the process
 * manager all write a number pair's session: with one cache between them, one writer's append is
 * the next one's current state instead of its revision conflict.
 */
export const SMS_SESSION_COMMANDS = Symbol('SmsSessionCommands');
export type SmsSessionCommands = CommandHandler<SmsSessionState, SmsSessionCommand, SmsSessionEvent>;

export const smsSessionCommands = commandHandlerProvider(SMS_SESSION_COMMANDS, smsSessionDecider, {
  cache: { capacity: 5000 },
});
