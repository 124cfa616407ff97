import type { ReadModels } from '../read-models/read-models.service';
import { andThen, type Awaitable } from '../platform/awaitable';
import { externalEventsQueries, type ExternalEventsQueries } from '../../projections/external-events/queries';

export interface AwaitedEvent {
  conversationId: string;
  name: string;
  accountId: string;
  agentId: string;
}

/**
 * Which conversation awaits an external event id, and whose it is: one lookup in the
 * external-events read model, on the request path (synchronous on SQLite). It lags the log a
 * little: a miss is only final once it has caught up (the caller waits for that before answering 400).
 */
export class AwaitedEvents {
  private readonly queries: ExternalEventsQueries;

  constructor(readModels: ReadModels) {
    this.queries = externalEventsQueries(readModels);
  }

  find(eventId: string): Awaitable<AwaitedEvent | null> {
    return andThen(this.queries.awaited(eventId), ({ row }) =>
      row
        ? { conversationId: row.conversation_id, name: row.name, accountId: row.account_id, agentId: row.agent_id }
        : null,
    );
  }
}
