import { Injectable } from '@nestjs/common';
import { andThen, type Awaitable } from '../../platform/awaitable';
import { ReadModels } from '../../read-models/read-models.service';
import {
  messagingSessionsQueries,
  type MessagingSessionsQueries,
} from '../../../projections/messaging-sessions/queries';
import type { QueuedSession } from './desk-protocol';

/** What the desk reads from the messaging-sessions read model: the queue, and who holds what. */
@Injectable()
export class DeskQueue {
  private readonly sessions: MessagingSessionsQueries;

  constructor(readModels: ReadModels) {
    this.sessions = messagingSessionsQueries(readModels);
  }

  /** Sessions waiting for a live agent in the account, oldest first, among the agents the key reaches. */
  queued(accountId: string, agents: 'all' | string[]): Awaitable<QueuedSession[]> {
    return andThen(this.sessions.queuedIn(accountId), ({ rows }) =>
      rows
        .filter((row) => agents === 'all' || agents.includes(row.agent_id))
        .map((row) => ({
          session_id: row.id,
          agent_id: row.agent_id,
          destination: row.destination ?? '',
          reason: row.reason ?? '',
          queued_at: row.queued_at ?? '',
        })),
    );
  }

  heldBy(keyId: string): Awaitable<string[]> {
    return andThen(this.sessions.heldBy(keyId), ({ rows }) => rows.map((row) => row.id));
  }
}
