import http from 'node:http';
import WebSocket from 'ws';
import type { JsonResponse, TestApp } from './test-app';

/**
 * An HTTP request from a chosen loopback address (all of 127.0.0.0/8 is this machine), so one test
 * can be several clients. Bounded by a timeout like every other wait.
 */
export function from(
  address: string,
  url: string,
  init: { method?: string; headers?: Record<string, string>; body?: unknown } = {},
): Promise<JsonResponse> {
  const body = init.body === undefined ? undefined : JSON.stringify(init.body);
  const headers = { ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...init.headers };
  return new Promise((resolve, reject) => {
    const req = http.request(
      url,
      { method: init.method ?? (body === undefined ? 'GET' : 'POST'), headers, localAddress: address, timeout: 10_000 },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          let parsed: unknown = text;
          try {
            parsed = text ? JSON.parse(text) : null;
          } catch {
            // not JSON
          }
          resolve({
            status: res.statusCode ?? 0,
            headers: new Headers(res.headers as Record<string, string>),
            body: parsed,
          });
        });
      },
    );
    req.on('timeout', () => req.destroy(new Error('request timed out')));
    req.on('error', reject);
    req.end(body);
  });
}

/** A desk handshake from `address`: 101 (then closed), or the refusal's status, headers and body. */
export function deskHandshake(
  t: TestApp,
  address: string,
  key: string,
  headers: Record<string, string> = {},
): Promise<JsonResponse> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(`${t.url.replace('http', 'ws')}/desk/ws?api_key=${encodeURIComponent(key)}`, {
      localAddress: address,
      handshakeTimeout: 10_000,
      headers,
    });
    ws.once('open', () => {
      ws.close();
      resolve({ status: 101, headers: new Headers(), body: null });
    });
    ws.once('unexpected-response', (_req, res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () =>
        resolve({
          status: res.statusCode ?? 0,
          headers: new Headers(res.headers as Record<string, string>),
          body: JSON.parse(Buffer.concat(chunks).toString('utf8')),
        }),
      );
    });
    ws.once('error', (error) => {
      if (!(error.message ?? '').startsWith('Unexpected server response')) reject(error);
    });
  });
}
