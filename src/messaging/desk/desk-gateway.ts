import { WebSocketGateway, type OnGatewayConnection, type OnGatewayInit } from '@nestjs/websockets';
import type { IncomingMessage } from 'node:http';
import type { WebSocket, WebSocketServer } from 'ws';
import { chooseSubprotocol } from '../../platform/ws/key-subprotocol';
import { gateHandshakes, onFrames } from '../../platform/ws/parley-ws-adapter';
import { DeskAdmission, type DeskAdmitted } from './desk-admission';
import { DeskConnections } from './desk-connections';

/**
 * The embedded live-agent desk, `/desk/ws?api_key=` (a key with the `desk` permission). Its
 * handshake is decided by DeskAdmission during the HTTP upgrade; an open socket and its frames
 * (`{type, session_id, ...}`, each read whole from the socket, onFrames) are DeskConnections'.
 */
@WebSocketGateway({ path: '/desk/ws', handleProtocols: chooseSubprotocol })
export class DeskGateway implements OnGatewayInit, OnGatewayConnection {
  private server: WebSocketServer | null = null;

  constructor(
    private readonly admission: DeskAdmission,
    private readonly connections: DeskConnections,
  ) {}

  afterInit(server: WebSocketServer): void {
    this.server = server;
    gateHandshakes(server, this.admission);
  }

  handleConnection(ws: WebSocket, _request: IncomingMessage, admitted: DeskAdmitted): void {
    onFrames(ws, (raw) => this.connections.frame(ws, raw));
    this.connections.opened(ws, admitted);
  }

  /** Drops every desk socket of a stopping process (1006): its agents reconnect to another. */
  dropAll(): void {
    for (const ws of this.server?.clients ?? []) ws.terminate();
  }
}
