import WebSocket from 'ws';
import { AgentsClient, createAccount, type AgentsAccount } from '../helpers/agents-fixture';
import { request, startTestApp, type JsonResponse, type TestApp } from '../helpers/test-app';
import { patient } from '../support/patience';
import type { Json } from '../helpers/json';

export const GREETING = 'Hi! I am the shop assistant.';

/** A knowledge base whose topics exercise the runtime's outcomes: an answer, a handoff, an end. */
export const KB = [
  {
    name: 'Refunds',
    content: 'Refunds are paid back to your card within 5 working days.',
    queries: ['can I get a refund', 'how do refunds work', 'money back'],
  },
  {
    name: 'Delivery',
    content: 'Standard delivery takes 2 to 3 days, and express delivery arrives the next working day.',
    queries: ['when will my parcel arrive', 'delivery time', 'shipping'],
  },
  {
    name: 'Speak to a human',
    content: 'Let me put you through to a colleague.',
    queries: ['talk to a person', 'human agent please'],
    actions: 'handoff destination=support reason="asked for a human"',
  },
  {
    name: 'Odd handoff',
    content: 'Transferring you to the odd queue.',
    queries: ['odd transfer queue please'],
    actions: 'handoff destination="not a valid queue!" reason=odd',
  },
  {
    name: 'Goodbye',
    content: 'Goodbye, have a nice day!',
    queries: ['bye', 'goodbye that is all'],
    actions: 'end_conversation',
  },
];

export interface MessagingFixture {
  t: TestApp;
  account: AgentsAccount;
  api: AgentsClient;
  agentId: string;
  connectorId: string;
  connectorToken: string;
  close(): Promise<void>;
}

export const op = (t: TestApp) => ({ 'x-operator-token': t.operatorToken });

/** The app (test clock), an account, an agent deployed to sandbox and a messaging connector for example.com. */
export async function startMessagingFixture(
  env: Record<string, string> = {},
  permissions = ['agents', 'keys'],
): Promise<MessagingFixture> {
  const t = await startTestApp({ PARLEY_TEST_CLOCK: '1', ...env });
  try {
    const account = await createAccount(t, 'Shop', permissions);
    const api = new AgentsClient(t, account);
    const { agentId } = await api.createAgent('Shop assistant', GREETING);
    await api.shipChange(agentId, 'kb', async (branchId) => {
      for (const topic of KB) await api.addTopic(agentId, branchId, topic);
    });
    const connector = await createConnector(t, account.accountId, agentId, 'sandbox', 'example.com');
    return {
      t,
      account,
      api,
      agentId,
      connectorId: connector.connectorId,
      connectorToken: connector.connectorToken,
      close: () => t.close(),
    };
  } catch (error) {
    await t.close();
    throw error;
  }
}

export async function createConnector(
  t: TestApp,
  accountId: string,
  agentId: string,
  environment: string,
  hostDomain: string,
) {
  const r = await request(`${t.url}/admin/v1/accounts/${accountId}/connectors`, {
    body: { agentId, kind: 'messaging', environment, hostDomain },
    headers: op(t),
  });
  if (r.status !== 201) throw new Error(`connector create failed: ${r.status} ${JSON.stringify(r.body)}`);
  return r.body as { connectorId: string; connectorToken: string };
}

export function accessToken(t: TestApp, headers: Record<string, string>): Promise<JsonResponse> {
  return request(`${t.url}/api/v1/access-token`, { method: 'POST', headers });
}

export async function token(f: MessagingFixture, host = 'shop.example.com'): Promise<string> {
  const r = await accessToken(f.t, { 'X-Token': f.connectorToken, 'X-Host': host });
  if (r.status !== 200) throw new Error(`access token failed: ${r.status} ${JSON.stringify(r.body)}`);
  return r.body.access_token;
}

export async function session(f: MessagingFixture, accessTokenValue: string, body: unknown = {}): Promise<string> {
  const r = await request(`${f.t.url}/api/v1/sessions`, {
    body,
    headers: { authorization: `Bearer ${accessTokenValue}` },
  });
  if (r.status !== 200) throw new Error(`session create failed: ${r.status} ${JSON.stringify(r.body)}`);
  return r.body.session_id;
}

export interface WireEvent {
  id: string;
  type: string;
  timestamp: string;
  sequence: number | null;
  payload: Json;
  metadata: { custom?: unknown };
}

/** A real `ws` client that records every event and waits for the ones a test expects. */
export class ChatClient {
  readonly events: WireEvent[] = [];
  readonly closed: Promise<{ code: number; reason: string }>;
  private waiters: Array<{ test: (e: WireEvent) => boolean; resolve: (e: WireEvent) => void; from: number }> = [];
  private cursorIndex = 0;

  private constructor(readonly ws: WebSocket) {
    ws.on('message', (data) => {
      const event = JSON.parse(data.toString()) as WireEvent;
      this.events.push(event);
      const index = this.events.length - 1;
      this.waiters = this.waiters.filter((w) => {
        if (index >= w.from && w.test(event)) {
          w.resolve(event);
          return false;
        }
        return true;
      });
    });
    this.closed = new Promise((resolve) =>
      ws.on('close', (code, reason) => resolve({ code, reason: reason.toString() })),
    );
  }

  static open(url: string, sessionId: string, accessTokenValue: string, cursor?: string | number): Promise<ChatClient> {
    const query = new URLSearchParams({
      session_id: sessionId,
      access_token: accessTokenValue,
      ...(cursor !== undefined ? { cursor: String(cursor) } : {}),
    });
    const ws = new WebSocket(`${url.replace(/^http/, 'ws')}/ws?${query}`);
    const client = new ChatClient(ws);
    return new Promise((resolve, reject) => {
      ws.once('open', () => resolve(client));
      ws.once('unexpected-response', (_req, res) => reject(new Error(`handshake refused: ${res.statusCode}`)));
      ws.once('error', reject);
    });
  }

  send(frame: unknown): void {
    this.ws.send(typeof frame === 'string' ? frame : JSON.stringify(frame));
  }

  /** The next event (after those already taken by `next`) of `type` that passes `test`. */
  next(type: string, test: (e: WireEvent) => boolean = () => true, timeoutMs = 5000): Promise<WireEvent> {
    const from = this.cursorIndex;
    const match = (e: WireEvent) => e.type === type && test(e);
    const seen = this.events.findIndex((e, i) => i >= from && match(e));
    const take = (e: WireEvent) => {
      this.cursorIndex = Math.max(this.cursorIndex, this.events.indexOf(e) + 1);
      return e;
    };
    if (seen >= 0) return Promise.resolve(take(this.events[seen]));
    return new Promise((resolve, reject) => {
      const timer = setTimeout(
        () =>
          reject(
            new Error(
              `no ${type} within ${patient(timeoutMs)} ms; got ${JSON.stringify(this.events.slice(from).map((e) => e.type))}`,
            ),
          ),
        patient(timeoutMs),
      );
      this.waiters.push({ test: match, from, resolve: (e) => (clearTimeout(timer), resolve(take(e))) });
    });
  }

  close(): void {
    this.ws.close();
  }
}

/** Opens a handshake that the server is expected to refuse: its HTTP status, headers and body. */
export function refusedHandshake(
  url: string,
  query: Record<string, string>,
  path = '/ws',
): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: Json }> {
  const ws = new WebSocket(`${url.replace(/^http/, 'ws')}${path}?${new URLSearchParams(query)}`);
  return new Promise((resolve, reject) => {
    ws.once('open', () => {
      ws.close();
      reject(new Error('handshake was accepted'));
    });
    ws.once('unexpected-response', (_req, res) => {
      let text = '';
      res.on('data', (chunk: Buffer) => (text += chunk.toString()));
      res.on('end', () =>
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body: text ? JSON.parse(text) : null }),
      );
    });
    ws.once('error', (error) => reject(error));
  });
}

/** Opens a session's socket and waits for its history batch. */
export async function connect(
  f: MessagingFixture,
  sessionId: string,
  accessTokenValue: string,
  cursor?: string | number,
) {
  const client = await ChatClient.open(f.t.url, sessionId, accessTokenValue, cursor);
  const batch = await client.next('EVENT_TYPE_EVENT_BATCH');
  return { client, batch };
}

/** join → greeting */
export async function joined(client: ChatClient) {
  client.send({ type: 'EVENT_TYPE_REQUEST_SERVICE_AGENT_JOIN' });
  await client.next('EVENT_TYPE_SERVICE_AGENT_JOINED');
  return client.next('EVENT_TYPE_SERVICE_AGENT_MESSAGE');
}

/** A human agent's desk socket: records frames, waits for the expected ones. */
export class DeskClient {
  readonly frames: Json[] = [];
  /** the close code and reason, once the socket closed */
  readonly closed: Promise<{ code: number; reason: string }>;
  private taken = 0;
  private waiters: Array<() => void> = [];

  private constructor(readonly ws: WebSocket) {
    ws.on('message', (data) => {
      this.frames.push(JSON.parse(data.toString()));
      for (const wake of this.waiters.splice(0)) wake();
    });
    this.closed = new Promise((resolve) =>
      ws.on('close', (code, reason) => resolve({ code, reason: reason.toString() })),
    );
  }

  static open(url: string, key: string, name?: string): Promise<DeskClient> {
    const ws = new WebSocket(
      `${url.replace(/^http/, 'ws')}/desk/ws?${new URLSearchParams({ api_key: key, ...(name ? { agent_name: name } : {}) })}`,
    );
    const client = new DeskClient(ws);
    return new Promise((resolve, reject) => {
      ws.once('open', () => resolve(client));
      ws.once('error', reject);
    });
  }

  send(frame: unknown) {
    this.ws.send(JSON.stringify(frame));
  }

  async next(test: (frame: Json) => boolean, timeoutMs = 5000): Promise<Json> {
    const deadline = Date.now() + patient(timeoutMs);
    for (;;) {
      const index = this.frames.findIndex((frame, i) => i >= this.taken && test(frame));
      if (index >= 0) {
        this.taken = index + 1;
        return this.frames[index];
      }
      if (Date.now() > deadline)
        throw new Error(`no matching desk frame; got ${JSON.stringify(this.frames.slice(this.taken))}`);
      await new Promise<void>((resolve) => {
        this.waiters.push(resolve);
        setTimeout(resolve, 50);
      });
    }
  }

  close() {
    this.ws.close();
  }
}
