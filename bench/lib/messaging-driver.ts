/**
 * The web chat load generator, run as its own process (node dist/bench/lib/messaging-driver.js <plan.json>)
 * so a thousand sockets' client work does not share the server's event loop. Each session is a
 * real client of the public protocol: its own access token, a session, a WebSocket, a join; then
 * one message a second (start times spread over the first second). It times each message from
 * send to the agent's answer, checks that every stored event arrives once and in sequence, and
 * at the end replays each session from cursor 0 to check that the live stream missed nothing.
 * Prints one JSON line.
 */
import fs from 'node:fs';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import WebSocket from 'ws';

export interface MessagingPlan {
  url: string;
  connectorToken: string;
  host: string;
  sessions: number;
  seconds: number;
  queries: string[];
}

export interface MessagingDriverResult {
  sessions: number;
  messages: number;
  replies: number;
  elapsed: number;
  p50: number;
  p99: number;
  max: number;
  /** messages whose answer never came */
  missing: number;
  /** stored events that arrived out of sequence (a gap, a repeat or a reorder) */
  outOfOrder: number;
  /** messages the server turned away as overloaded (the high-load system message) */
  refused: number;
  /** sessions whose live events differ from their replay */
  replayMismatches: number;
  setupSeconds: number;
  /** this client process's own event-loop delay over the load (ms): what it adds to every latency it times */
  clientLoopDelayP99Ms: number;
  clientLoopDelayMaxMs: number;
  failures: number;
  firstFailure?: string;
}

interface Event {
  type: string;
  sequence: number | null;
  payload: Record<string, unknown>;
}

interface Client {
  ws: WebSocket;
  sessionId: string;
  token: string;
  lastSequence: number;
  stored: string[];
  sentAt: number[];
  onEvent: ((event: Event) => void) | null;
}

async function post<T>(url: string, headers: Record<string, string>, body?: unknown): Promise<T> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body ?? {}),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`${url}: ${response.status} ${text}`);
  return JSON.parse(text) as T;
}

function open(
  url: string,
  sessionId: string,
  token: string,
  cursor: number,
): Promise<{ ws: WebSocket; batch: Event; next: (handler: (event: Event) => void) => void }> {
  const ws = new WebSocket(
    `${url.replace(/^http/, 'ws')}/ws?${new URLSearchParams({ session_id: sessionId, access_token: token, cursor: String(cursor) })}`,
    { perMessageDeflate: false },
  );
  let handler: ((event: Event) => void) | null = null;
  return new Promise((resolve, reject) => {
    ws.once('error', reject);
    ws.once('unexpected-response', (_req, res) => reject(new Error(`handshake refused: ${res.statusCode}`)));
    ws.on('message', (data) => {
      const event = JSON.parse(data.toString()) as Event;
      if (event.type === 'EVENT_TYPE_EVENT_BATCH' && !handler)
        return resolve({ ws, batch: event, next: (h) => (handler = h) });
      handler?.(event);
    });
  });
}

/** Runs `work` over `items`, `limit` at a time. */
async function pool<T>(items: T[], limit: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(limit, items.length) }, async () => {
      while (next < items.length) await work(items[next++]);
    }),
  );
}

/** The load phase's bounds, told to the server's side (stdout lines before the result) so it can take its CPU over them. */
export const LOAD_STARTS = 'load-starts';
export const LOAD_ENDS = 'load-ends';

async function drive(plan: MessagingPlan, phase: (line: string) => void): Promise<MessagingDriverResult> {
  let failures = 0;
  let firstFailure: string | undefined;
  const fail = (error: unknown) => {
    failures++;
    firstFailure ??= error instanceof Error ? error.message : String(error);
  };
  const latencies: number[] = [];
  let outOfOrder = 0;
  let refused = 0;
  let messages = 0;
  const clients: Client[] = [];

  const setupStart = performance.now();
  await pool(
    Array.from({ length: plan.sessions }, (_, i) => i),
    50,
    async () => {
      const { access_token: token } = await post<{ access_token: string }>(`${plan.url}/api/v1/access-token`, {
        'X-Token': plan.connectorToken,
        'X-Host': plan.host,
      });
      const { session_id: sessionId } = await post<{ session_id: string }>(`${plan.url}/api/v1/sessions`, {
        authorization: `Bearer ${token}`,
      });
      const { ws, batch, next } = await open(plan.url, sessionId, token, 0);
      const client: Client = { ws, sessionId, token, lastSequence: 0, stored: [], sentAt: [], onEvent: null };
      const record = (event: Event) => {
        if (event.sequence === null) return;
        if (event.sequence !== client.lastSequence + 1) outOfOrder++;
        client.lastSequence = Math.max(client.lastSequence, event.sequence);
        client.stored.push(`${event.sequence}:${event.type}`);
      };
      for (const event of (batch.payload.events as Event[]) ?? []) record(event);
      const greeted = new Promise<void>((resolve) => {
        next((event) => {
          record(event);
          if (event.type === 'EVENT_TYPE_SERVICE_AGENT_MESSAGE') {
            if (client.onEvent) client.onEvent(event);
            else resolve();
          } else if (event.type === 'EVENT_TYPE_SYSTEM_MESSAGE') {
            // an overloaded server answers a message with this instead of the agent: that message is done
            if (event.payload.message === 'high-load message (try again in a moment)' && client.onEvent) {
              refused++;
              client.sentAt.shift();
            } else fail(new Error(`system message: ${JSON.stringify(event.payload)}`));
          }
        });
      });
      ws.send(JSON.stringify({ type: 'EVENT_TYPE_REQUEST_SERVICE_AGENT_JOIN' }));
      await greeted;
      client.onEvent = () => {
        const sent = client.sentAt.shift();
        if (sent !== undefined) latencies.push(performance.now() - sent);
      };
      clients.push(client);
    },
  ).catch(fail);
  const setupSeconds = (performance.now() - setupStart) / 1000;

  let q = 0;
  const loop = monitorEventLoopDelay({ resolution: 5 });
  loop.enable();
  phase(LOAD_STARTS);
  const started = performance.now();
  const timers: NodeJS.Timeout[] = [];
  for (const client of clients) {
    const send = () => {
      if (client.ws.readyState !== WebSocket.OPEN) return;
      client.sentAt.push(performance.now());
      messages++;
      client.ws.send(
        JSON.stringify({ type: 'EVENT_TYPE_USER_MESSAGE', payload: { text: plan.queries[q++ % plan.queries.length] } }),
      );
    };
    timers.push(
      setTimeout(() => {
        send();
        timers.push(setInterval(send, 1000));
      }, Math.random() * 1000),
    );
  }
  await new Promise((resolve) => setTimeout(resolve, plan.seconds * 1000));
  for (const timer of timers) clearInterval(timer);
  const elapsed = (performance.now() - started) / 1000;
  loop.disable();
  phase(LOAD_ENDS);
  // the answers still on their way
  const drainUntil = performance.now() + 5000;
  while (clients.some((c) => c.sentAt.length > 0) && performance.now() < drainUntil)
    await new Promise((resolve) => setTimeout(resolve, 50));
  const missing = clients.reduce((n, c) => n + c.sentAt.length, 0);

  // what each socket saw live must be exactly the stored history
  let replayMismatches = 0;
  await pool(clients, 50, async (client) => {
    const { ws, batch } = await open(plan.url, client.sessionId, client.token, 0);
    const replayed = (batch.payload.events as Event[]).map((e) => `${e.sequence}:${e.type}`);
    if (replayed.join(',') !== client.stored.join(',')) replayMismatches++;
    ws.close();
  }).catch(fail);
  for (const client of clients) client.ws.close();

  latencies.sort((a, b) => a - b);
  const at = (p: number) => latencies[Math.min(latencies.length - 1, Math.floor(latencies.length * p))] ?? 0;
  return {
    sessions: clients.length,
    messages,
    replies: latencies.length,
    elapsed,
    p50: at(0.5),
    p99: at(0.99),
    max: latencies[latencies.length - 1] ?? 0,
    missing,
    outOfOrder,
    refused,
    replayMismatches,
    setupSeconds,
    clientLoopDelayP99Ms: loop.percentile(99) / 1e6,
    clientLoopDelayMaxMs: loop.max / 1e6,
    failures,
    firstFailure,
  };
}

if (require.main === module) {
  const plan = JSON.parse(fs.readFileSync(process.argv[2], 'utf8')) as MessagingPlan;
  drive(plan, (line) => process.stdout.write(`${line}\n`)).then(
    (result) => {
      process.stdout.write(`${JSON.stringify(result)}\n`);
      process.exit(0);
    },
    (error) => {
      process.stderr.write(`${(error as Error).stack}\n`);
      process.exit(1);
    },
  );
}
