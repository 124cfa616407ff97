import http from 'node:http';
import https from 'node:https';
import type { AttemptResult } from './retry-schedule';

export interface WebhookRequest {
  url: string;
  body: string;
  headers: Record<string, string>;
  timeoutMs: number;
}

export type WebhookSender = (request: WebhookRequest) => Promise<AttemptResult>;

/**
 * One POST, answered by its status line: the outcome is known once the receiver's status arrives
 * (its body is drained and ignored). No answer within `timeoutMs` (real time, connection
 * included) is a timeout. Redirects are not followed, and no connection is kept for later.
 */
export const sendWebhook: WebhookSender = (request) =>
  new Promise((resolve) => {
    let settled = false;
    const finish = (result: AttemptResult) => {
      if (settled) return;
      settled = true;
      resolve(result);
    };
    let outgoing: http.ClientRequest;
    try {
      const url = new URL(request.url);
      outgoing = (url.protocol === 'https:' ? https : http).request(url, {
        method: 'POST',
        agent: false,
        headers: { ...request.headers, 'content-length': String(Buffer.byteLength(request.body)) },
      });
    } catch (error) {
      return finish({ error: 'network', detail: error instanceof Error ? error.message : String(error) });
    }
    const timer = setTimeout(() => {
      finish({ error: 'timeout', detail: `no answer within ${request.timeoutMs} ms` });
      outgoing.destroy();
    }, request.timeoutMs);
    outgoing.on('response', (response) => {
      finish({ statusCode: response.statusCode ?? 0 });
      response.on('error', () => undefined);
      response.resume();
    });
    outgoing.on('error', (error: NodeJS.ErrnoException) => finish({ error: 'network', detail: error.code ? `${error.code}: ${error.message}` : error.message }));
    outgoing.on('close', () => clearTimeout(timer));
    outgoing.end(request.body);
  });
