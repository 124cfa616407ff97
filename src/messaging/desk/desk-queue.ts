import { andThen, type Awaitable } from '../../platform/awaitable';
import { ReadQuery } from '../../read-models/read-query';
import type { ReadModels } from '../../read-models/read-models.service';
import type { QueuedSession } from './desk-protocol';

interface QueueRow {
  id: string;
  agent_id: string;
  destination: string | null;
  reason: string | null;
  queued_at: string | null;
}

/** What the desk reads from the messaging-sessions read model: the queue, and who holds what. */
export class DeskQueue {
  private readonly queuedIn: ReadQuery<QueueRow>;
  private readonly held: ReadQuery<{ id: string }>;

  constructor(readModels: ReadModels) {
    const source = () => readModels.source('messaging-sessions');
    this.queuedIn = new ReadQuery(
      source,
      "SELECT id, agent_id, destination, reason, queued_at FROM messaging_session WHERE account_id = ? AND status = 'queued' ORDER BY queued_at, id LIMIT 500",
    );
    this.held = new ReadQuery(source, "SELECT id FROM messaging_session WHERE live_agent_id = ? AND status = 'live'");
  }

  /** Sessions waiting for a live agent in the account, oldest first, among the agents the key reaches. */
  queued(accountId: string, agents: 'all' | string[]): Awaitable<QueuedSession[]> {
    return andThen(this.queuedIn.all(accountId), ({ rows }) =>
      rows
        .filter((row) => agents === 'all' || agents.includes(row.agent_id))
        .map((row) => ({ session_id: row.id, agent_id: row.agent_id, destination: row.destination ?? '', reason: row.reason ?? '', queued_at: row.queued_at ?? '' })),
    );
  }

  heldBy(keyId: string): Awaitable<string[]> {
    return andThen(this.held.all(keyId), ({ rows }) => rows.map((row) => row.id));
  }
}
