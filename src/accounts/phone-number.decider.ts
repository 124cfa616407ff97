import type { Decider, DomainEvent } from '../commands/decider';
import { conflict } from '../platform/errors/domain-error';

/**
 * A phone number routes inbound messages to one agent, across all accounts. Its own stream
 * (`phone-number-<e164>`) is the lock that makes that true: the first claim wins, at the append.
 */
export type PhoneNumberEvent = DomainEvent<
  'PhoneNumberClaimed',
  { number: string; agentId: string; accountId: string; claimedAt: string }
>;

export interface PhoneNumberState {
  holder: { agentId: string; accountId: string } | null;
}

export interface ClaimPhoneNumber {
  number: string;
  agentId: string;
  accountId: string;
  now: string;
}

export const phoneNumberStream = (number: string) => `phone-number-${number}`;

export const phoneNumberDecider: Decider<PhoneNumberState, ClaimPhoneNumber, PhoneNumberEvent> = {
  initialState: () => ({ holder: null }),
  evolve: (_state, event) => ({ holder: { agentId: event.data.agentId, accountId: event.data.accountId } }),
  decide: (command, state) => {
    if (state.holder === null) {
      return [
        {
          type: 'PhoneNumberClaimed',
          data: {
            number: command.number,
            agentId: command.agentId,
            accountId: command.accountId,
            claimedAt: command.now,
          },
        },
      ];
    }
    if (state.holder.agentId === command.agentId) return [];
    throw conflict('PHONE_NUMBER_TAKEN', `${command.number} is already provisioned for another agent`);
  },
};
