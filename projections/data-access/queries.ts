import type { DataSource } from 'typeorm';
import { ReadQuery } from '../../src/read-models/read-query';
import type { Lookup, ReadModelSources } from '../query-kit';
import { DATA_ACCESS_READ_MODEL } from './name';

export { DATA_ACCESS_READ_MODEL } from './name';

/** A project's data-access configuration as stored: `response_metrics` is a JSON array. */
interface DataAccessRow {
  response_metrics: string;
  show_transcripts: number | boolean;
}

/** The data-access read model's queries. */
export interface DataAccessQueries {
  /** Prepared (every conversations request): the project's configuration, when it was ever set. */
  ofAgent(agentId: string): Lookup<DataAccessRow>;
}

class DataAccessReadModel implements DataAccessQueries {
  private readonly byAgent: ReadQuery<DataAccessRow>;

  constructor(source: () => DataSource) {
    this.byAgent = new ReadQuery(
      source,
      'SELECT response_metrics, show_transcripts FROM data_access WHERE agent_id = ?',
    );
  }

  ofAgent(agentId: string) {
    return this.byAgent.get(agentId);
  }
}

/** The data-access read model's queries on whichever generation serves now. */
export function dataAccessQueries(readModels: ReadModelSources): DataAccessQueries {
  return new DataAccessReadModel(() => readModels.source(DATA_ACCESS_READ_MODEL));
}
