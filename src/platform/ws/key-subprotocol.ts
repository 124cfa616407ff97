import type { IncomingMessage } from 'node:http';

/** The subprotocol a browser client asks for first; the only one the server ever echoes. */
const PARLEY_SUBPROTOCOL = 'parley';
/** A browser cannot set headers on a WebSocket: it offers its key as a second subprotocol, `parley.key.<key>`. */
const KEY_SUBPROTOCOL_PREFIX = 'parley.key.';

/**
 * The API key a browser offered in `Sec-WebSocket-Protocol` (never in the URL, where proxies and
 * access logs would keep it), or undefined.
 */
export function keyFromSubprotocols(request: IncomingMessage): string | undefined {
  const header = request.headers['sec-websocket-protocol'];
  if (typeof header !== 'string') return undefined;
  for (const part of header.split(',')) {
    const value = part.trim();
    if (value.startsWith(KEY_SUBPROTOCOL_PREFIX)) return value.slice(KEY_SUBPROTOCOL_PREFIX.length) || undefined;
  }
  return undefined;
}

/**
 * `ws`'s handleProtocols: echoes `parley` when offered and nothing else, so the key offered beside
 * it is never written back into a response header.
 */
export function chooseSubprotocol(protocols: Set<string>): string | false {
  return protocols.has(PARLEY_SUBPROTOCOL) ? PARLEY_SUBPROTOCOL : false;
}
