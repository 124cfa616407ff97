import type { Decider, DomainEvent } from '../commands/decider';
import { DomainError } from '../platform/errors/domain-error';

/**
 * An agent's DNI pool in one environment (contract §18): the numbers, and who holds each. One
 * stream per pool (`dni-pool-<agent>-<environment>`): a reservation appends at the revision read,
 * so two requests racing for the last free number cannot both get it, in one process or several.
 * A reservation ends at `expiresAt` on the platform clock; nothing is appended then: a number is
 * free when its last reservation has expired.
 */
export type DniPoolEvent =
  | DomainEvent<'DniNumberAdded', { agentId: string; environment: string; number: string; at: string }>
  | DomainEvent<'DniNumberRemoved', { agentId: string; environment: string; number: string; at: string }>
  | DomainEvent<
      'DniNumberReserved',
      {
        agentId: string;
        environment: string;
        number: string;
        reservationId: string;
        attributes: Record<string, unknown>;
        reservedAt: string;
        expiresAt: string;
      }
    >;

export interface Reservation {
  reservationId: string;
  attributes: Record<string, unknown>;
  reservedAt: string;
  expiresAt: string;
}

export interface DniPoolState {
  /** number → its latest reservation (null: never reserved) */
  numbers: Readonly<Record<string, Reservation | null>>;
}

export type DniPoolCommand =
  | { type: 'AddNumber'; agentId: string; environment: string; number: string; now: string }
  | { type: 'RemoveNumber'; agentId: string; environment: string; number: string; now: string }
  | {
      type: 'Reserve';
      agentId: string;
      environment: string;
      reservationId: string;
      attributes: Record<string, unknown>;
      ttlS: number;
      now: string;
    };

export const dniPoolStream = (agentId: string, environment: string) => `dni-pool-${agentId}-${environment}`;

/** An empty pool has no expiry to wait for: the client is told to come back after this long. */
const EMPTY_POOL_RETRY_AFTER_S = 60;

/** The reservation holding `number` at `now`, if any. */
export function reservationAt(state: DniPoolState, number: string, now: string): Reservation | null {
  const reservation = state.numbers[number];
  return reservation && Date.parse(reservation.expiresAt) > Date.parse(now) ? reservation : null;
}

function exhausted(message: string, retryAfterS: number) {
  return new DomainError('DNI_POOL_EXHAUSTED', message, 503, null, [], { 'retry-after': String(retryAfterS) });
}

function reserve(command: Extract<DniPoolCommand, { type: 'Reserve' }>, state: DniPoolState): DniPoolEvent[] {
  const numbers = Object.keys(state.numbers).sort();
  if (numbers.length === 0)
    throw exhausted('this agent has no DNI numbers in this environment', EMPTY_POOL_RETRY_AFTER_S);
  const nowMs = Date.parse(command.now);
  // the number free the longest first, so a caller who dials a just-expired number late still
  // reaches the agent without the next reservation's attributes when the pool allows
  const free = numbers
    .filter((n) => reservationAt(state, n, command.now) === null)
    .sort((a, b) => expiry(state, a) - expiry(state, b));
  if (free.length === 0) {
    const soonest = Math.min(...numbers.map((n) => expiry(state, n)));
    throw exhausted(
      'every DNI number of this pool is reserved; retry when one expires',
      Math.max(1, Math.ceil((soonest - nowMs) / 1000)),
    );
  }
  return [
    {
      type: 'DniNumberReserved',
      data: {
        agentId: command.agentId,
        environment: command.environment,
        number: free[0],
        reservationId: command.reservationId,
        attributes: command.attributes,
        reservedAt: command.now,
        expiresAt: new Date(nowMs + command.ttlS * 1000).toISOString(),
      },
    },
  ];
}

const expiry = (state: DniPoolState, number: string) => {
  const reservation = state.numbers[number];
  return reservation ? Date.parse(reservation.expiresAt) : 0;
};

export const dniPoolDecider: Decider<DniPoolState, DniPoolCommand, DniPoolEvent> = {
  initialState: () => ({ numbers: {} }),
  evolve: (state, event) => {
    const numbers = { ...state.numbers };
    switch (event.type) {
      case 'DniNumberAdded':
        numbers[event.data.number] = null;
        break;
      case 'DniNumberRemoved':
        delete numbers[event.data.number];
        break;
      case 'DniNumberReserved': {
        const { reservationId, attributes, reservedAt, expiresAt } = event.data;
        numbers[event.data.number] = { reservationId, attributes, reservedAt, expiresAt };
        break;
      }
    }
    return { numbers };
  },
  decide: (command, state) => {
    const { agentId, environment, now } = command;
    switch (command.type) {
      case 'AddNumber':
        return command.number in state.numbers
          ? []
          : [{ type: 'DniNumberAdded', data: { agentId, environment, number: command.number, at: now } }];
      case 'RemoveNumber':
        return command.number in state.numbers
          ? [{ type: 'DniNumberRemoved', data: { agentId, environment, number: command.number, at: now } }]
          : [];
      case 'Reserve':
        return reserve(command, state);
    }
  },
};
