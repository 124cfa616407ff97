import net from 'node:net';
import type { Json } from './json';

export interface RawResponse {
  status: number;
  headers: Record<string, string>;
  body: Json;
}

/**
 * Sends bytes as they are over a loopback socket and reads one response: for requests fetch cannot
 * produce (broken framing, oversized headers, unknown methods, raw `%` in a path). Bounded by a timeout.
 */
export function rawHttp(baseUrl: string, bytes: string | Buffer, timeoutMs = 5000): Promise<RawResponse> {
  const { hostname, port } = new URL(baseUrl);
  return new Promise((resolve, reject) => {
    const socket = net.connect({ host: hostname, port: Number(port) });
    const chunks: Buffer[] = [];
    const timer = setTimeout(() => finish(new Error('no complete response in time')), timeoutMs);
    const finish = (error?: Error) => {
      clearTimeout(timer);
      socket.destroy();
      if (error) return reject(error);
      resolve(parse(Buffer.concat(chunks).toString('utf8')));
    };
    socket.on('data', (chunk) => {
      chunks.push(chunk);
      if (complete(Buffer.concat(chunks).toString('utf8'))) finish();
    });
    socket.on('error', () => (chunks.length > 0 ? finish() : finish(new Error('socket failed before a response'))));
    socket.on('close', () => finish());
    socket.write(bytes);
  });
}

function split(text: string) {
  const end = text.indexOf('\r\n\r\n');
  if (end === -1) return null;
  const [statusLine, ...lines] = text.slice(0, end).split('\r\n');
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const colon = line.indexOf(':');
    headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  return { status: Number(statusLine.split(' ')[1]), headers, body: text.slice(end + 4) };
}

function complete(text: string): boolean {
  const parts = split(text);
  const length = parts?.headers['content-length'];
  return parts !== null && length !== undefined && Buffer.byteLength(parts.body) >= Number(length);
}

function parse(text: string): RawResponse {
  const parts = split(text);
  if (!parts) throw new Error(`not an HTTP response: ${JSON.stringify(text.slice(0, 200))}`);
  let body: unknown = parts.body;
  try {
    body = JSON.parse(parts.body);
  } catch {
    // not JSON: keep the text
  }
  return { status: parts.status, headers: parts.headers, body };
}
