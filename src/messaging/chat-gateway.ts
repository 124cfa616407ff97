import { Inject } from '@nestjs/common';
import { WebSocketGateway, type OnGatewayConnection, type OnGatewayInit } from '@nestjs/websockets';
import type { IncomingMessage } from 'node:http';
import type { Logger } from 'pino';
import type { WebSocket, WebSocketServer } from 'ws';
import { LOGGER } from '../platform/logging/logger';
import { gateHandshakes, onFrames } from '../platform/ws/parley-ws-adapter';
import { ChatAdmission, type ChatAdmitted } from './chat-admission';
import { ChatConnections } from './chat-connections';
import { PING_INTERVAL_MS } from './limits';

/**
 * The web chat socket, `/ws?session_id=&access_token=&cursor=` (interface.md). Its handshake is
 * decided by ChatAdmission during the HTTP upgrade; an open socket is ChatConnections' (replay,
 * live events, token expiry), and its frames are ChatMessages' (the wire protocol is
 * `{type, payload, metadata}`: each frame is read whole, straight from the socket, onFrames).
 */
@WebSocketGateway({ path: '/ws' })
export class ChatGateway implements OnGatewayInit, OnGatewayConnection {
  private server: WebSocketServer | null = null;
  private pinger: NodeJS.Timeout | null = null;

  constructor(
    private readonly admission: ChatAdmission,
    private readonly connections: ChatConnections,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  afterInit(server: WebSocketServer): void {
    this.server = server;
    gateHandshakes(server, this.admission);
    this.pinger = setInterval(() => this.connections.ping(server.clients), PING_INTERVAL_MS);
    this.pinger.unref();
  }

  handleConnection(ws: WebSocket, _request: IncomingMessage, admitted: ChatAdmitted): void {
    onFrames(ws, (raw) => this.connections.frame(ws, raw));
    this.connections
      .opened(ws, admitted)
      .catch((error: unknown) => this.logger.error({ err: error }, 'could not open a chat socket'));
  }

  /** Tells every client the server is going (1001: reconnect with backoff, same token and cursor); the adapter drops what is left. */
  async goingAway(): Promise<void> {
    if (this.pinger) clearInterval(this.pinger);
    if (!this.server || this.server.clients.size === 0) return;
    for (const ws of this.server.clients) ws.close(1001, 'server shutting down');
    await new Promise<void>((resolve) => setTimeout(resolve, 50));
  }
}
