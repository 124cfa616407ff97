import type { DataSource } from 'typeorm';
import { ReadQuery } from '../../src/read-models/read-query';
import type { Lookup, ReadModelSources } from '../query-kit';
import { EXTERNAL_EVENTS_READ_MODEL } from './name';

export { EXTERNAL_EVENTS_READ_MODEL } from './name';

interface AwaitedEventRow {
  conversation_id: string;
  name: string;
  account_id: string;
  agent_id: string;
}

/** The external-events read model's queries. */
export interface ExternalEventsQueries {
  /** Prepared (the webhook's request path): which conversation awaits this event id, and whose it is. */
  awaited(eventId: string): Lookup<AwaitedEventRow>;
}

class ExternalEventsReadModel implements ExternalEventsQueries {
  private readonly byId: ReadQuery<AwaitedEventRow>;

  constructor(source: () => DataSource) {
    this.byId = new ReadQuery(
      source,
      'SELECT conversation_id, name, account_id, agent_id FROM awaited_external_event WHERE event_id = ?',
    );
  }

  awaited(eventId: string) {
    return this.byId.get(eventId);
  }
}

/** The external-events read model's queries on whichever generation serves now. */
export function externalEventsQueries(readModels: ReadModelSources): ExternalEventsQueries {
  return new ExternalEventsReadModel(() => readModels.source(EXTERNAL_EVENTS_READ_MODEL));
}
