import net from 'node:net';
import { patient } from '../support/patience';

export interface Held {
  /** connections the server answered and keeps open */
  held: number;
  /** connections the server refused (429 TOO_MANY_CONNECTIONS, then closed) */
  refused: number;
  close(): void;
}

/**
 * Opens `count` connections from `localAddress` one after another, each asking GET /healthz with
 * keep-alive: a connection the server keeps is answered 200 and stays open, one past the cap is
 * answered 429 TOO_MANY_CONNECTIONS and closed. Each outcome is awaited (bounded), never guessed.
 */
export async function heldConnections(baseUrl: string, localAddress: string, count: number): Promise<Held> {
  const { hostname, port } = new URL(baseUrl);
  const open: net.Socket[] = [];
  let refused = 0;
  for (let i = 0; i < count; i++) {
    const socket = net.connect({ host: hostname, port: Number(port), localAddress });
    const outcome = await firstAnswer(socket);
    if (outcome === 'refused') refused++;
    else open.push(socket);
  }
  return { held: open.length, refused, close: () => open.forEach((socket) => socket.destroy()) };
}

function firstAnswer(socket: net.Socket): Promise<'held' | 'refused'> {
  return new Promise((resolve, reject) => {
    let text = '';
    const timer = setTimeout(() => reject(new Error('no answer on a new connection in time')), patient(5000));
    const done = (outcome: 'held' | 'refused') => {
      clearTimeout(timer);
      socket.removeAllListeners('data');
      resolve(outcome);
    };
    socket.on('data', (chunk: Buffer) => {
      text += chunk.toString('latin1');
      if (!text.includes('\r\n\r\n')) return;
      if (text.startsWith('HTTP/1.1 429') && text.includes('TOO_MANY_CONNECTIONS')) done('refused');
      else if (/^HTTP\/1\.1 200/.test(text)) done('held');
      else reject(new Error(`unexpected answer: ${text.slice(0, 200)}`));
    });
    socket.on('error', () => undefined);
    socket.write('GET /healthz HTTP/1.1\r\nHost: localhost\r\n\r\n');
  });
}

/** Resolves when `socket` is closed by the server; rejects after a bound. */
export function closedByServer(socket: net.Socket, boundMs: number): Promise<string> {
  return new Promise((resolve, reject) => {
    let text = '';
    const timer = setTimeout(() => reject(new Error(`still open after ${boundMs} ms`)), boundMs);
    socket.on('data', (chunk: Buffer) => (text += chunk.toString('latin1')));
    socket.on('error', () => undefined);
    socket.on('close', () => {
      clearTimeout(timer);
      resolve(text);
    });
  });
}

/** The JSON body of a raw HTTP response text. */
export function bodyOf(response: string): Record<string, unknown> {
  return JSON.parse(response.slice(response.indexOf('\r\n\r\n') + 4)) as Record<string, unknown>;
}
