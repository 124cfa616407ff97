import type { DataSource } from 'typeorm';
import type { Awaitable } from '../../src/platform/awaitable';
import { ReadQuery } from '../../src/read-models/read-query';
import type { Lookup, ReadModelSources } from '../query-kit';
import { MESSAGING_SESSIONS_READ_MODEL } from './name';

export { MESSAGING_SESSIONS_READ_MODEL } from './name';

/** A session waiting in the desk's queue. */
interface QueuedSessionRow {
  id: string;
  agent_id: string;
  destination: string | null;
  reason: string | null;
  queued_at: string | null;
}

type Rows<Row> = Awaitable<{ rows: Row[]; switched: boolean }>;

/** The messaging-sessions read model's queries, all prepared: the desk and the turn loop ask them often. */
export interface MessagingSessionsQueries {
  /** The account's queued sessions, oldest first (at most 500). */
  queuedIn(accountId: string): Rows<QueuedSessionRow>;
  /** The sessions a live agent (a key) holds now. */
  heldBy(keyId: string): Rows<{ id: string }>;
  /** The session a service-agent conversation runs on. */
  sessionOf(conversationId: string): Lookup<{ id: string }>;
}

class MessagingSessionsReadModel implements MessagingSessionsQueries {
  private readonly queued: ReadQuery<QueuedSessionRow>;
  private readonly held: ReadQuery<{ id: string }>;
  private readonly session: ReadQuery<{ id: string }>;

  constructor(source: () => DataSource) {
    this.queued = new ReadQuery(
      source,
      "SELECT id, agent_id, destination, reason, queued_at FROM messaging_session WHERE account_id = ? AND status = 'queued' ORDER BY queued_at, id LIMIT 500",
    );
    this.held = new ReadQuery(source, "SELECT id FROM messaging_session WHERE live_agent_id = ? AND status = 'live'");
    this.session = new ReadQuery(source, 'SELECT id FROM messaging_session WHERE conversation_id = ?');
  }

  queuedIn(accountId: string) {
    return this.queued.all(accountId);
  }

  heldBy(keyId: string) {
    return this.held.all(keyId);
  }

  sessionOf(conversationId: string) {
    return this.session.get(conversationId);
  }
}

/** The messaging-sessions read model's queries on whichever generation serves now. */
export function messagingSessionsQueries(readModels: ReadModelSources): MessagingSessionsQueries {
  return new MessagingSessionsReadModel(() => readModels.source(MESSAGING_SESSIONS_READ_MODEL));
}
