import { Inject, Injectable } from '@nestjs/common';
import type { IncomingMessage } from 'node:http';
import { KeyAuthenticator } from '../../platform/auth/key-authenticator';
import type { KeyRecord } from '../../platform/auth/key-principal';
import { DomainError, forbidden } from '../../platform/errors/domain-error';
import type { HandshakeGate } from '../../platform/ws/handshake-gate';
import { keyFromSubprotocols } from '../../platform/ws/key-subprotocol';
import { CONFIG, type Config } from '../../platform/config/config';
import { DeskHub } from './desk-hub';

/** What an admitted desk handshake carries into its socket. */
export interface DeskAdmitted {
  key: KeyRecord;
  /** the key's value, to re-check it on every frame */
  keyValue: string;
  agentName: string;
}

/**
 * Decides a `/desk/ws?api_key=` handshake (the `x-api-key` header works too for clients that can
 * set one, and a browser's `parley, parley.key.<key>` subprotocols keep it out of the URL): 401 for a missing, unknown, deleted or expired key, 403 without the `desk`
 * permission, 429 past the key's socket cap. An admitted handshake holds one of the key's slots
 * until its socket opens or it is abandoned.
 */
@Injectable()
export class DeskAdmission implements HandshakeGate<DeskAdmitted> {
  /** open desk sockets per key on this process (MESSAGING_MAX_DESK_SOCKETS_PER_KEY) */
  private readonly maxSocketsPerKey: number;

  constructor(
    private readonly keys: KeyAuthenticator,
    private readonly hub: DeskHub,
    @Inject(CONFIG) config: Config,
  ) {
    this.maxSocketsPerKey = config.messaging.maxDeskSocketsPerKey;
  }

  async admit(request: IncomingMessage, url: URL): Promise<DeskAdmitted> {
    const header = request.headers['x-api-key'];
    const value =
      url.searchParams.get('api_key') ?? keyFromSubprotocols(request) ?? (Array.isArray(header) ? header[0] : header);
    const key = await this.keys.authenticate(value ?? undefined, 'api_key');
    if (!key.permissions.includes('desk')) throw forbidden('this key lacks the desk permission', 'PERMISSION_DENIED');
    const agentName = url.searchParams.get('agent_name')?.trim().slice(0, 64) || key.name;
    const max = this.maxSocketsPerKey;
    if (!this.hub.reserve(key.id, max))
      throw new DomainError(
        'CONNECTION_LIMIT_EXCEEDED',
        `desk connection limit exceeded for this key (${max} open)`,
        429,
      );
    return { key, keyValue: value!, agentName };
  }

  abandon(admitted: DeskAdmitted): void {
    this.hub.release(admitted.key.id);
  }
}
