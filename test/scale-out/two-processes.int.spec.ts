import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { AgentsClient, createAccount, type AgentsAccount } from '../helpers/agents-fixture';
import { AppProcess } from '../helpers/app-process';
import {
  connect,
  createConnector,
  GREETING,
  joined,
  KB,
  session,
  token,
  type MessagingFixture,
} from '../messaging/messaging-fixture';
import {
  buildAgent,
  ConversationsReader,
  eventually,
  say,
  setDataAccess,
  startChat,
  type ConversationsFixture,
} from '../helpers/conversations-fixture';
import { request } from '../helpers/test-app';
import { postgresBinariesOrSkip, startPostgresServer, type PostgresServer } from '../support/postgres-server';
import { APP_PROCESS_TEST_TIMEOUT_MS } from '../support/patience';

const binaries = postgresBinariesOrSkip(
  'two API processes on shared stores (test/scale-out/two-processes.int.spec.ts)',
);
const maybe = binaries ? describe : describe.skip;

const CONVERSATIONS = 10;
const ROUNDS = 6;
const KILL_AFTER_ROUND = 2;
const TOPICS = [
  {
    name: 'opening hours',
    content: 'We are open from 9 to 5, Monday to Friday.',
    queries: ['when are you open', 'opening hours'],
  },
  {
    name: 'refunds',
    content: 'Refunds reach your card within 5 working days.',
    queries: ['how do I get a refund', 'refund my order'],
  },
  {
    name: 'delivery',
    content: 'Delivery takes two days within the country.',
    queries: ['how long is delivery', 'shipping time'],
  },
];
const MESSAGES = [
  'when are you open?',
  'I want a refund',
  'how long does shipping take?',
  'opening hours on Friday?',
  'refund my order please',
  'delivery time?',
];

/**
 * The scaled set on one machine: two API processes on one event store (a SQLite file in WAL,
 * which both append to), one PostgreSQL (platform records, leases) and the read models both share.
 * Traffic goes to both; one is killed with SIGKILL mid-way; the other takes over its leases, and
 * every acknowledged turn is in the log once and in the Conversations API, with nothing stuck.
 */
maybe('two API processes on shared stores', () => {
  let server: PostgresServer;
  let dir: string;
  const processes: AppProcess[] = [];

  beforeAll(async () => {
    server = await startPostgresServer(binaries);
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'parley-two-'));
  }, 180_000);

  // each test's processes end with it: a survivor left running slows the next test's starts
  afterEach(async () => {
    for (const p of processes.splice(0)) await p.stop();
  });

  afterAll(async () => {
    await server?.stop();
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });

  it(
    'serves from both, survives a kill -9 of one, and loses, repeats and leaves behind nothing',
    async () => {
      const env = {
        DATA_DIR: dir,
        OPERATOR_TOKEN: 'two-processes-operator-token-0123456789',
        SERVER_SECRET: 'two-processes-server-secret-0123456789abcdef',
        READ_MODEL_DB: 'postgres',
        DATABASE_URL: server.url,
        DEBUG_CHAT_TIMEOUT_S: '86400',
        RATE_LIMIT_PER_KEY: '0',
        BODY_BYTES_PER_S: '0',
      };
      const [a, b] = await Promise.all([AppProcess.start(env), AppProcess.start(env)]);
      processes.push(a, b);
      // as a load balancer would: traffic once both say they are ready (each read model led by one of them)
      for (const p of [a, b])
        await eventually(async () => expect((await request(`${p.t.url}/readyz`)).status).toBe(200), 20_000, 100);

      const account: AgentsAccount = await createAccount(a.t, 'Two Co', ['agents', 'keys', 'conversations']);
      const fixture = (p: AppProcess): ConversationsFixture => ({
        t: p.t,
        accountId: account.accountId,
        accountSlug: account.accountSlug,
        api: new AgentsClient(p.t, account),
        adminKey: account.key,
        close: async () => undefined,
      });
      const onA = fixture(a);
      const onB = fixture(b);
      // built through A, used through B at once: read-your-writes across processes
      const agentId = await buildAgent(onA, 'Shop', 'Hello, how can I help?', TOPICS);

      const ids: string[] = [];
      for (let i = 0; i < CONVERSATIONS; i++) ids.push(await startChat(i % 2 === 0 ? onA : onB, agentId));
      const acknowledged = new Map<string, string[]>(ids.map((id) => [id, []]));

      let aAlive = true;
      for (let round = 0; round < ROUNDS; round++) {
        const turns = ids.map(async (id, i) => {
          const via = aAlive && (i + round) % 2 === 0 ? onA : onB;
          const reply = await say(via, agentId, id, MESSAGES[(i + round) % MESSAGES.length]);
          acknowledged.get(id)!.push(reply.response);
        });
        if (round === KILL_AFTER_ROUND) {
          // A dies between its answers: its requests of this round have all been answered, B's are in flight
          const answeredByA = turns.filter((_, i) => (i + round) % 2 === 0);
          await Promise.all(answeredByA);
          aAlive = false;
          expect(await a.kill()).toEqual({ code: null, signal: 'SIGKILL' });
        }
        await Promise.all(turns);
      }

      // B took every lease over and caught up: every read model serves, led here, at the head
      const ready = await eventually(
        async () => {
          const r = await request(`${b.t.url}/readyz`);
          expect(r.status).toBe(200);
          expect(
            r.body.projections.every(
              (p: { role: string; lagEvents: number }) => p.role === 'leader' && p.lagEvents === 0,
            ),
          ).toBe(true);
          return r.body;
        },
        15_000,
        100,
      );
      expect(ready.status).toBe('ready');

      // every acknowledged turn is in the log exactly once
      const events = new Database(path.join(dir, 'events.sqlite'), { readonly: true });
      try {
        const { total, ids: distinct } = events
          .prepare('SELECT count(*) AS total, count(DISTINCT event_id) AS ids FROM events')
          .get() as { total: number; ids: number };
        expect(distinct).toBe(total);
        for (const id of ids) {
          const { n } = events
            .prepare("SELECT count(*) AS n FROM events WHERE stream_id = ? AND type = 'TurnRecorded'")
            .get(`conversation-${id}`) as { n: number };
          expect({ id, turns: n }).toEqual({ id, turns: ROUNDS + 1 }); // the greeting, then one per round
        }
      } finally {
        events.close();
      }

      // and in the Conversations API, served by the survivor, in order
      await setDataAccess(onB, agentId, { response_metrics: [], show_transcripts: true });
      const reader = new ConversationsReader(onB, account.key, agentId);
      for (const id of ids) {
        const r = await reader.one(id, { client_env: 'sandbox' });
        expect(r.status).toBe(200);
        const turns = r.body.turns as Array<{ user_input: string; agent_response: string }>;
        expect(turns).toHaveLength(ROUNDS + 1);
        // after the greeting, each turn's answer is the one its client was given
        expect(turns.slice(1).map((t) => t.agent_response)).toEqual(acknowledged.get(id));
      }

      // nothing left claimed by the dead process: no timer or delivery is held past its lease forever
      const { Client } = await import('pg');
      const pg = new Client({ connectionString: server.url });
      await pg.connect();
      try {
        const { rows } = await pg.query(
          "SELECT count(*)::int AS n FROM timer WHERE status = 'firing' AND lease_until > $1",
          [new Date(Date.now() + 120_000).toISOString()],
        );
        expect(rows[0].n).toBe(0);
      } finally {
        await pg.end();
      }
    },
    APP_PROCESS_TEST_TIMEOUT_MS,
  );

  it(
    'a socket on one process receives what a command on the other appended, in the same sequence',
    async () => {
      const url = await server.createDatabase('fan_out');
      const shared = fs.mkdtempSync(path.join(os.tmpdir(), 'parley-two-ws-'));
      try {
        const env = {
          DATA_DIR: shared,
          OPERATOR_TOKEN: 'two-processes-operator-token-0123456789',
          SERVER_SECRET: 'two-processes-server-secret-0123456789abcdef',
          READ_MODEL_DB: 'postgres',
          DATABASE_URL: url,
        };
        const [a, b] = await Promise.all([AppProcess.start(env), AppProcess.start(env)]);
        processes.push(a, b);
        for (const p of [a, b])
          await eventually(async () => expect((await request(`${p.t.url}/readyz`)).status).toBe(200), 20_000, 100);

        const account = await createAccount(a.t, 'Fan Co', ['agents', 'keys']);
        const api = new AgentsClient(a.t, account);
        const { agentId } = await api.createAgent('Shop assistant', GREETING);
        await api.shipChange(agentId, 'kb', async (branchId) => {
          for (const topic of KB) await api.addTopic(agentId, branchId, topic);
        });
        const connector = await createConnector(a.t, account.accountId, agentId, 'sandbox', 'example.com');
        const on = (p: AppProcess): MessagingFixture => ({
          t: p.t,
          account,
          api,
          agentId,
          connectorId: connector.connectorId,
          connectorToken: connector.connectorToken,
          close: async () => undefined,
        });
        // the token from B, the session from A, a socket on each
        const bearer = await token(on(b));
        const sessionId = await session(on(a), bearer);
        const viaA = await connect(on(a), sessionId, bearer);
        const viaB = await connect(on(b), sessionId, bearer);

        const greeting = await joined(viaA.client);
        const seenByB = await viaB.client.next('EVENT_TYPE_SERVICE_AGENT_MESSAGE', () => true, 10_000);
        expect(seenByB.payload).toEqual(greeting.payload);
        expect(seenByB.sequence).toBe(greeting.sequence);

        viaA.client.send({ type: 'EVENT_TYPE_USER_MESSAGE', payload: { text: 'how do refunds work?' } });
        const answer = await viaA.client.next('EVENT_TYPE_SERVICE_AGENT_MESSAGE');
        const answerOnB = await viaB.client.next('EVENT_TYPE_SERVICE_AGENT_MESSAGE', () => true, 10_000);
        expect(answerOnB).toMatchObject({ sequence: answer.sequence, payload: answer.payload });
        expect(answer.payload.text).toContain('Refunds are paid back');

        // and the other way round: a message sent on B is answered, and A's socket sees both
        viaB.client.send({ type: 'EVENT_TYPE_USER_MESSAGE', payload: { text: 'delivery time' } });
        const onA = await viaA.client.next('EVENT_TYPE_SERVICE_AGENT_MESSAGE', () => true, 10_000);
        expect(onA.payload.text).toContain('Standard delivery');
        viaA.client.close();
        viaB.client.close();
      } finally {
        fs.rmSync(shared, { recursive: true, force: true });
      }
    },
    APP_PROCESS_TEST_TIMEOUT_MS,
  );
});
