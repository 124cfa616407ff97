import { Inject, Injectable, type OnModuleInit } from '@nestjs/common';
import type { Logger } from 'pino';
import { WebSocket } from 'ws';
import { DataAccessService } from '../../accounts/data-access.service';
import type { ConversationSummary } from '../../../projections/conversations/queries';
import { renderConversation, type RenderOptions } from '../../conversations-api/render';
import type { RecordedEvent } from '../../event-store/event-store.port';
import { CLOSE_CREDENTIAL_EXPIRED, CLOSE_CREDENTIAL_REVOKED } from '../../messaging/close-codes';
import { KeyAuthenticator } from '../../platform/auth/key-authenticator';
import { keyCanReachAgent } from '../../platform/auth/key-principal';
import { DomainError } from '../../platform/errors/domain-error';
import { Clock } from '../../platform/clock/clock';
import { atDeadline } from '../../platform/clock/deadline';
import { accountRef, agentRef } from '../../platform/ids/prefixed-ids';
import { LOGGER } from '../../platform/logging/logger';
import { ReadModels } from '../../read-models/read-models.service';
import {
  CONVERSATIONS_REPOSITORY,
  type ConversationsRepository,
  CONVERSATIONS_READ_MODEL,
} from '../../../projections/conversations/queries';
import { feedNotices } from './feed-notices';
import type { FeedAdmitted } from './studio-feed-admission';
import { StudioFeedHub, type FeedSocket } from './studio-feed-hub';
import { API_KEYS_READ_MODEL } from '../../../projections/api-keys/queries';

/** Conversations read per query when a batch changed many (SQLite bounds a statement's parameters). */
const SUMMARIES_PER_READ = 500;

/** A client that stops reading is dropped once this much waits for it. */
const MAX_BUFFERED_BYTES = 8 * 1024 * 1024;

/** The listing's own shape (v3, no latency, state or metadata): what a row of the list shows. */
const RENDER: RenderOptions = {
  version: 'v3',
  includeLatency: false,
  includeContextState: false,
  includeTurnMetadata: false,
};

/**
 * The Studio's live conversations feed (`/studio/ws`). After the conversations read model commits
 * a batch, every socket whose key reaches a changed conversation gets a notice with the
 * conversation as the v3 listing would show that key now (its permissions and the project's data
 * access; without its turns: the page reads a transcript when it opens one). Reading after the
 * commit means a notice never shows what the API would not yet answer. Sockets close as the key
 * does: 4403 when it is deleted, 4401 when it expires.
 */
@Injectable()
export class StudioFeedConnections implements OnModuleInit {
  constructor(
    private readonly hub: StudioFeedHub,
    private readonly keys: KeyAuthenticator,
    private readonly readModels: ReadModels,
    @Inject(CONVERSATIONS_REPOSITORY) private readonly conversations: ConversationsRepository,
    private readonly dataAccess: DataAccessService,
    private readonly clock: Clock,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  onModuleInit(): void {
    this.readModels.onApplied(CONVERSATIONS_READ_MODEL, (batch) => {
      if (this.hub.empty) return;
      this.notify(batch).catch((error: unknown) => this.logger.error({ err: error }, 'studio feed could not notify'));
    });
    this.readModels.onApplied(API_KEYS_READ_MODEL, (batch) => this.onKeyEvents(batch));
  }

  opened(ws: WebSocket, admitted: FeedAdmitted): void {
    const { key, agentId } = admitted;
    let cancelExpiry = () => undefined as void;
    const socket: FeedSocket = {
      key,
      agentId,
      send: (json) => {
        if (ws.readyState !== WebSocket.OPEN) return;
        if (ws.bufferedAmount > MAX_BUFFERED_BYTES) return ws.terminate();
        ws.send(json);
      },
      end: (code, reason) => {
        cancelExpiry();
        this.hub.remove(socket);
        ws.close(code, reason);
      },
    };
    this.hub.add(socket);
    cancelExpiry = atDeadline(this.clock, key.expiresAtMs, () =>
      socket.end(CLOSE_CREDENTIAL_EXPIRED.code, CLOSE_CREDENTIAL_EXPIRED.reason),
    );
    ws.once('close', () => {
      cancelExpiry();
      this.hub.remove(socket);
    });
    const ready = JSON.stringify({
      type: 'FEED_READY',
      account_id: accountRef(key.accountId),
      project_id: agentId === null ? null : agentRef(agentId),
    });
    // a key deleted while the handshake was under way was announced before this socket was in the hub
    this.recheck(socket, admitted.keyValue)
      .then((usable) => {
        if (usable) socket.send(ready);
      })
      .catch((error: unknown) => this.logger.error({ err: error }, 'studio feed could not re-check its key'));
  }

  /** False, with the socket closed as the key's state says, when the key is no longer usable. */
  private async recheck(socket: FeedSocket, keyValue: string): Promise<boolean> {
    try {
      await this.keys.authenticate(keyValue, 'x-api-key');
      return true;
    } catch (error) {
      if (!(error instanceof DomainError) || error.status !== 401) throw error;
      const close = error.code === 'API_KEY_EXPIRED' ? CLOSE_CREDENTIAL_EXPIRED : CLOSE_CREDENTIAL_REVOKED;
      socket.end(close.code, close.reason);
      return false;
    }
  }

  /** A client frame: `{"type":"PING"}` answers PONG (a liveness check through proxies); anything else is ignored. */
  frame(ws: WebSocket, raw: string): void {
    if (raw.length < 64 && /^\s*\{\s*"type"\s*:\s*"PING"\s*\}\s*$/.test(raw)) ws.send('{"type":"PONG"}');
  }

  private onKeyEvents(batch: RecordedEvent[]): void {
    if (this.hub.empty) return;
    for (const event of batch) {
      if (event.type !== 'ApiKeyDeleted') continue;
      for (const socket of this.hub.socketsOf((event.data as { keyId: string }).keyId))
        socket.end(CLOSE_CREDENTIAL_REVOKED.code, CLOSE_CREDENTIAL_REVOKED.reason);
    }
  }

  private async notify(batch: RecordedEvent[]): Promise<void> {
    const notices = feedNotices(batch);
    if (notices.size === 0) return;
    // a catch-up batch may touch thousands of conversations: read them a bounded group at a time
    const ids = [...notices.keys()];
    const summaries: ConversationSummary[] = [];
    for (let i = 0; i < ids.length; i += SUMMARIES_PER_READ)
      summaries.push(...(await this.conversations.summaries(ids.slice(i, i + SUMMARIES_PER_READ))));
    const configs = new Map<string, ReturnType<DataAccessService['config']>>();
    const configOf = (agentId: string) => {
      let config = configs.get(agentId);
      if (!config) configs.set(agentId, (config = this.dataAccess.config(agentId)));
      return config;
    };
    for (const summary of summaries) {
      const readers = [...this.hub.sockets()].filter((socket) => reaches(socket, summary));
      if (readers.length === 0) continue;
      const config = await configOf(summary.agentId);
      for (const socket of readers) {
        const conversation = renderConversation(summary, null, RENDER, { permissions: socket.key.permissions, config });
        delete (conversation as { turns?: unknown }).turns;
        socket.send(JSON.stringify({ type: notices.get(summary.id), conversation }));
      }
    }
  }
}

/** The Conversations API's scope: the key's account, an agent the key reaches, and the socket's project if it named one. */
function reaches(socket: FeedSocket, summary: ConversationSummary): boolean {
  return (
    socket.key.accountId === summary.accountId &&
    keyCanReachAgent(socket.key, summary.agentId) &&
    (socket.agentId === null || socket.agentId === summary.agentId)
  );
}
