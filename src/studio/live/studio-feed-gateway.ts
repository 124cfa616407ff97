import { WebSocketGateway, type OnGatewayConnection, type OnGatewayInit } from '@nestjs/websockets';
import type { IncomingMessage } from 'node:http';
import type { WebSocket, WebSocketServer } from 'ws';
import { gateHandshakes, onFrames } from '../../platform/ws/parley-ws-adapter';
import { chooseSubprotocol } from '../../platform/ws/key-subprotocol';
import { StudioFeedAdmission, type FeedAdmitted } from './studio-feed-admission';
import { StudioFeedConnections } from './studio-feed-connections';

/**
 * Studio's live conversations feed, `/studio/ws` (docs/sockets.md): the handshake is decided by
 * StudioFeedAdmission, the open socket's notices are StudioFeedConnections'. Only `parley` is
 * echoed as the subprotocol: the key offered beside it never comes back in a header.
 */
@WebSocketGateway({ path: '/studio/ws', handleProtocols: chooseSubprotocol })
export class StudioFeedGateway implements OnGatewayInit, OnGatewayConnection {
  constructor(
    private readonly admission: StudioFeedAdmission,
    private readonly connections: StudioFeedConnections,
  ) {}

  afterInit(server: WebSocketServer): void {
    gateHandshakes(server, this.admission);
  }

  handleConnection(ws: WebSocket, _request: IncomingMessage, admitted: FeedAdmitted): void {
    onFrames(ws, (raw) => this.connections.frame(ws, raw));
    this.connections.opened(ws, admitted);
  }
}
