import { Injectable } from '@nestjs/common';
import type { CommandContext } from '../platform/commands/command-context';
import { agentRef } from '../platform/ids/prefixed-ids';
import { ReadModels } from '../read-models/read-models.service';
import { ReadQuery } from '../read-models/read-query';
import { AccountCommands } from './account-commands';
import { DEFAULT_DATA_ACCESS, type DataAccessConfig } from './data-access';
import type { DataAccessDto } from './dto/data-access.dto';

@Injectable()
export class DataAccessService {
  constructor(
    private readonly commands: AccountCommands,
    private readonly readModels: ReadModels,
  ) {}

  /** Every conversations request asks: a prepared lookup (TypeORM's findOneBy costs ten times as much). */
  private readonly byAgent = new ReadQuery<{ response_metrics: string; show_transcripts: number | boolean }>(
    () => this.readModels.source('data-access'),
    'SELECT response_metrics, show_transcripts FROM data_access WHERE agent_id = ?',
  );

  /** The project's configuration; the defaults when it was never set. */
  async config(agentId: string): Promise<DataAccessConfig> {
    const { row } = await this.byAgent.get(agentId);
    return row ? { responseMetrics: JSON.parse(row.response_metrics) as string[], showTranscripts: Boolean(row.show_transcripts) } : DEFAULT_DATA_ACCESS;
  }

  async view(agentId: string) {
    const config = await this.config(agentId);
    return { agentId: agentRef(agentId), response_metrics: config.responseMetrics, show_transcripts: config.showTranscripts };
  }

  async configure(accountId: string, agentId: string, dto: DataAccessDto, context: CommandContext) {
    await this.commands.execute(
      accountId,
      { type: 'ConfigureDataAccess', agentId, responseMetrics: dto.response_metrics, showTranscripts: dto.show_transcripts },
      context,
      ['data-access'],
    );
    return this.view(agentId);
  }
}
