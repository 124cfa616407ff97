import { Injectable } from '@nestjs/common';
import { ConnectorRow, PhoneNumberRow } from '../../projections/accounts/accounts.entities';
import { ReadModels } from '../read-models/read-models.service';

/** The operator's SMS set-up, from the accounts read model: SMS connectors and provisioned numbers. */
@Injectable()
export class SmsDirectory {
  constructor(private readonly readModels: ReadModels) {}

  private get source() {
    return this.readModels.source('accounts');
  }

  /** The SMS connector with this id, or null (unknown, or a connector of another kind). */
  async connector(connectorId: string): Promise<ConnectorRow | null> {
    const row = await this.source.getRepository(ConnectorRow).findOneBy({ id: connectorId });
    return row?.kind === 'sms' ? row : null;
  }

  /** The number, when it is provisioned for this agent in this (number) environment. */
  async numberOf(agentId: string, environment: string, number: string): Promise<PhoneNumberRow | null> {
    return this.source.getRepository(PhoneNumberRow).findOneBy({ number, agentId, environment });
  }

  /** The agent's numbers in an environment, in a stable order (the first is the default sender). */
  async numbersOf(agentId: string, environment: string): Promise<string[]> {
    const rows = await this.source.getRepository(PhoneNumberRow).find({ where: { agentId, environment }, order: { number: 'ASC' } });
    return rows.map((r) => r.number);
  }
}
