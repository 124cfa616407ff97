import { Injectable } from '@nestjs/common';
import type { CommandContext } from '../commands/command-context';
import { agentRef } from '../platform/ids/prefixed-ids';
import { ReadModels } from '../read-models/read-models.service';
import {
  dataAccessQueries,
  type DataAccessQueries,
  DATA_ACCESS_READ_MODEL,
} from '../../projections/data-access/queries';
import { AccountCommands } from './account-commands';
import { DEFAULT_DATA_ACCESS, type DataAccessConfig } from './data-access';
import type { DataAccessDto } from './dto/data-access.dto';

@Injectable()
export class DataAccessService {
  private readonly queries: DataAccessQueries;

  constructor(
    private readonly commands: AccountCommands,
    private readonly readModels: ReadModels,
  ) {
    this.queries = dataAccessQueries(readModels);
  }

  /** The project's configuration; the defaults when it was never set. */
  async config(agentId: string): Promise<DataAccessConfig> {
    const { row } = await this.queries.ofAgent(agentId);
    return row
      ? {
          responseMetrics: JSON.parse(row.response_metrics) as string[],
          showTranscripts: Boolean(row.show_transcripts),
        }
      : DEFAULT_DATA_ACCESS;
  }

  async view(agentId: string) {
    const config = await this.config(agentId);
    return {
      agentId: agentRef(agentId),
      response_metrics: config.responseMetrics,
      show_transcripts: config.showTranscripts,
    };
  }

  async configure(accountId: string, agentId: string, dto: DataAccessDto, context: CommandContext) {
    await this.commands.execute(
      accountId,
      {
        type: 'ConfigureDataAccess',
        agentId,
        responseMetrics: dto.response_metrics,
        showTranscripts: dto.show_transcripts,
      },
      context,
      [DATA_ACCESS_READ_MODEL],
    );
    return this.view(agentId);
  }
}
