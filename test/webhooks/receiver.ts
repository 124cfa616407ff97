import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { verifySignature } from '../../src/webhooks/signature';
import { patient } from '../support/patience';
import type { Json } from '../helpers/json';

/** One delivery as the receiver saw it: the raw bytes, so the signature is checked over what was sent. */
export interface Received {
  headers: http.IncomingHttpHeaders;
  rawBody: string;
  body: Json;
  path: string;
}

/** What to answer: a status, or `hang` (no answer at all, for timeouts). */
export type Answer = number | 'hang';

/**
 * A real webhook receiver on 127.0.0.1: records every request and answers from a script (then
 * `fallback`). `verified(secret)` is what an integrator's receiver does with each delivery.
 */
export class Receiver {
  readonly received: Received[] = [];
  private script: Answer[] = [];
  fallback: Answer = 200;
  private waiters = new Set<() => void>();

  private constructor(
    private readonly server: http.Server,
    readonly url: string,
  ) {}

  static async start(path = '/hook'): Promise<Receiver> {
    const server = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => receiver.onRequest(req, Buffer.concat(chunks).toString('utf8'), res));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const receiver = new Receiver(server, `http://127.0.0.1:${(server.address() as AddressInfo).port}${path}`);
    return receiver;
  }

  /** The next requests get these answers, in order; then `fallback`. */
  answer(...answers: Answer[]): this {
    this.script.push(...answers);
    return this;
  }

  private onRequest(req: http.IncomingMessage, rawBody: string, res: http.ServerResponse): void {
    let body: unknown = null;
    try {
      body = JSON.parse(rawBody);
    } catch {
      // kept raw
    }
    this.received.push({ headers: req.headers, rawBody, body, path: req.url ?? '' });
    const answer = this.script.length > 0 ? this.script.shift()! : this.fallback;
    if (answer !== 'hang') res.writeHead(answer, { 'content-type': 'text/plain' }).end(answer < 300 ? 'ok' : 'nope');
    for (const waiter of [...this.waiters]) waiter();
  }

  /** Resolves once `count` requests have arrived; rejects after `timeoutMs`. */
  waitFor(count: number, timeoutMs = 5000): Promise<Received[]> {
    return new Promise((resolve, reject) => {
      const check = () => {
        if (this.received.length < count) return;
        clearTimeout(timer);
        this.waiters.delete(check);
        resolve(this.received.slice());
      };
      const timer = setTimeout(() => {
        this.waiters.delete(check);
        reject(
          new Error(`receiver got ${this.received.length} requests, expected ${count} within ${patient(timeoutMs)} ms`),
        );
      }, patient(timeoutMs));
      this.waiters.add(check);
      check();
    });
  }

  /** Waits a little and asserts nothing more arrived than `count`. */
  async expectNoMoreThan(count: number, quietMs = 400): Promise<void> {
    await new Promise((resolve) => setTimeout(resolve, quietMs));
    expect(this.received.length).toBe(count);
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise((resolve) => this.server.close(resolve));
  }
}

/** Checks a delivery the way a receiver must: signature over "{timestamp}.{raw body}", event id header = body id. */
export function expectSigned(delivery: Received, secret: string): void {
  const timestamp = String(delivery.headers['x-webhook-timestamp']);
  const signature = String(delivery.headers['x-webhook-signature']);
  expect(timestamp).toMatch(/^\d{10}$/);
  expect(signature).toMatch(/^[0-9a-f]{64}$/);
  expect(verifySignature(secret, timestamp, delivery.rawBody, signature)).toBe(true);
  expect(delivery.headers['x-webhook-event-id']).toBe(delivery.body.id);
  expect(delivery.headers['content-type']).toBe('application/json');
}

/** Polls a deliveries listing until it holds `count` attempts. */
export async function waitForAttempts(list: () => Promise<Json[]>, count: number, timeoutMs = 5000): Promise<Json[]> {
  const deadline = Date.now() + patient(timeoutMs);
  for (;;) {
    const attempts = await list();
    if (attempts.length >= count) return attempts;
    if (Date.now() > deadline) throw new Error(`expected ${count} attempts, have ${attempts.length}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}
