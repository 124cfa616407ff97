import type { CommandHandler } from '../commands/command-handler';
import { commandHandlerProvider } from '../commands/command-handler.provider';
import { dniPoolDecider, type DniPoolCommand, type DniPoolEvent, type DniPoolState } from './dni-pool.decider';

/**
 * The one handler of `dni-pool-` streams: reservations (DniService) and the operator's number
 * provisioning (AccountsService) write the same pools, and the numbers list reads them, so they
 * share one cache (a pool stream grows by one event per reservation).
 */
export const DNI_POOL_COMMANDS = Symbol('DniPoolCommands');
export type DniPoolCommands = CommandHandler<DniPoolState, DniPoolCommand, DniPoolEvent>;

export const dniPoolCommands = commandHandlerProvider(DNI_POOL_COMMANDS, dniPoolDecider, { cache: { capacity: 1000 } });
