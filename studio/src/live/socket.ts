import type { Hosts } from '../api/http';

/**
 * Opens one of the API's WebSockets from the browser. The key goes in the subprotocol list
 * (`parley`, `parley.key.<key>`): a browser cannot set headers on a WebSocket, and a key in the URL
 * would end up in proxies' and servers' access logs. `platform`: the desk is a platform route,
 * on the platform host under PUBLIC_DOMAIN; the Studio feed answers on the page's own host.
 */
export function openSocket(
  path: string,
  query: Record<string, string>,
  key: string,
  hosts: Hosts,
  family: 'platform' | 'page',
): WebSocket {
  const base = family === 'platform' && hosts.platform ? hosts.platform : window.location.origin;
  const params = new URLSearchParams(query).toString();
  const url = `${base.replace(/^http/, 'ws')}${path}${params ? `?${params}` : ''}`;
  return new WebSocket(url, ['parley', `parley.key.${key}`]);
}

/** What a close code means to a person (docs/sockets.md). */
export function describeClose(code: number): string {
  if (code === 4401) return 'the key has expired';
  if (code === 4403) return 'the key was revoked';
  if (code === 1006) return 'the connection was lost';
  return `closed (${code})`;
}
