import type { ReadModels } from '../read-models/read-models.service';
import { SyncQuery } from '../read-models/sync-query';

export interface AwaitedEvent {
  conversationId: string;
  name: string;
  accountId: string;
  agentId: string;
}

/**
 * Which conversation awaits an external event id, and whose it is: the external-events read model
 * names the conversation, the conversations read model its owner. Synchronous lookups on the
 * request path. Both lag the log a little: a miss is only final once they have caught up (the
 * caller waits for that before answering 400).
 */
export class AwaitedEvents {
  private readonly byId: SyncQuery<{ conversation_id: string; name: string }>;
  private readonly owner: SyncQuery<{ account_id: string; agent_id: string }>;

  constructor(readModels: ReadModels) {
    this.byId = new SyncQuery(() => readModels.source('external-events'), 'SELECT conversation_id, name FROM awaited_external_event WHERE event_id = ?');
    this.owner = new SyncQuery(() => readModels.source('conversations'), 'SELECT account_id, agent_id FROM conversation WHERE id = ?');
  }

  find(eventId: string): AwaitedEvent | null {
    const awaited = this.byId.get(eventId).row;
    if (!awaited) return null;
    const owner = this.owner.get(awaited.conversation_id).row;
    if (!owner) return null;
    return { conversationId: awaited.conversation_id, name: awaited.name, accountId: owner.account_id, agentId: owner.agent_id };
  }
}
