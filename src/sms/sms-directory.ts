import { Injectable } from '@nestjs/common';
import {
  accountsQueries,
  type AccountsQueries,
  type Connector,
  type PhoneNumber,
} from '../../projections/accounts/queries';
import { ReadModels } from '../read-models/read-models.service';

/** The operator's SMS set-up, from the accounts read model: SMS connectors and provisioned numbers. */
@Injectable()
export class SmsDirectory {
  private readonly accounts: AccountsQueries;

  constructor(readModels: ReadModels) {
    this.accounts = accountsQueries(readModels);
  }

  /** The SMS connector with this id, or null (unknown, or a connector of another kind). */
  async connector(connectorId: string): Promise<Connector | null> {
    const row = await this.accounts.connector(connectorId);
    return row?.kind === 'sms' ? row : null;
  }

  /** The number, when it is provisioned for this agent in this (number) environment. */
  async numberOf(agentId: string, environment: string, number: string): Promise<PhoneNumber | null> {
    return this.accounts.phoneNumber(agentId, environment, number);
  }

  /**
   * The agent's own numbers in an environment, in a stable order (the first is the default sender).
   * DNI pool numbers are left out: each one stands for a reservation's caller, not for the agent.
   */
  async numbersOf(agentId: string, environment: string): Promise<string[]> {
    const rows = await this.accounts.phoneNumbersOf(agentId, environment);
    return rows.filter((r) => r.pool !== 'dni').map((r) => r.number);
  }
}
