import type { ReadModels } from '../read-models/read-models.service';
import { andThen, type Awaitable } from '../platform/awaitable';
import { ReadQuery } from '../read-models/read-query';

export interface AwaitedEvent {
  conversationId: string;
  name: string;
  accountId: string;
  agentId: string;
}

/**
 * Which conversation awaits an external event id, and whose it is: the external-events read model
 * names the conversation, the conversations read model its owner. Lookups on the request path,
 * synchronous on SQLite. Both lag the log a little: a miss is only final once they have caught up (the
 * caller waits for that before answering 400).
 */
export class AwaitedEvents {
  private readonly byId: ReadQuery<{ conversation_id: string; name: string }>;
  private readonly owner: ReadQuery<{ account_id: string; agent_id: string }>;

  constructor(readModels: ReadModels) {
    this.byId = new ReadQuery(() => readModels.source('external-events'), 'SELECT conversation_id, name FROM awaited_external_event WHERE event_id = ?');
    this.owner = new ReadQuery(() => readModels.source('conversations'), 'SELECT account_id, agent_id FROM conversation WHERE id = ?');
  }

  find(eventId: string): Awaitable<AwaitedEvent | null> {
    return andThen(this.byId.get(eventId), ({ row: awaited }) => {
      if (!awaited) return null;
      return andThen(this.owner.get(awaited.conversation_id), ({ row: owner }) => {
        if (!owner) return null;
        return { conversationId: awaited.conversation_id, name: awaited.name, accountId: owner.account_id, agentId: owner.agent_id };
      });
    });
  }
}
