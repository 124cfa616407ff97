import type { EventStore } from '../../src/event-store/event-store.port';
import { openSealedSqliteLog } from '../../src/cli/open-sealed-store';
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { DataSource } from 'typeorm';
import { conversationsProjection } from '../../projections/conversations/conversations.projection';
import type { ConversationSummary } from '../../projections/conversations/queries';
import {
  conversationsRepository,
  type ConversationsRepository,
  type Page,
} from '../../projections/conversations/queries';
import type { CursorPosition } from '../../src/conversations-api/cursor';
import type { ListFilters, SearchMode } from '../../src/conversations-api/list-query';
import { PostgresConversationsRepository } from '../../projections/conversations/postgres-queries';
import { SqliteConversationsRepository } from '../../projections/conversations/sqlite-queries';
import { catchUp } from '../../src/read-models/generations/catch-up';
import { openReadModel } from '../../src/read-models/generations/open-read-model';
import {
  dropGenerationSchema,
  generationSchema,
  openPostgresReadModel,
} from '../../src/read-models/generations/postgres/open-postgres-read-model';
import { seed } from '../../src/cli/seed/seed';
import { filters } from './list-filters';
import { postgresBinariesOrSkip, startPostgresServer, type PostgresServer } from '../support/postgres-server';
import { patient } from '../support/patience';

/**
 * The seeding, the PostgreSQL server's start and the two catch-ups. On a slow day the whole file took
 * about 110 s alone, and its setup went past a fixed 180 s with another app-starting file beside it.
 */
const SETUP_TIMEOUT_MS = patient(60_000);

const binaries = postgresBinariesOrSkip(
  'conversations search on PostgreSQL (test/conversations-api/postgres-search.int.spec.ts)',
);
const maybe = binaries ? describe : describe.skip;

const ids = (page: Page) => page.rows.map((r) => r.id);

/** Conversations a seeded one becomes with other words in its second turn: accents the seed never writes. */
const ACCENTED = {
  user: 'Le café était froid, I want a remboursement for the crème brûlée',
  agent: 'Désolé! Refunds take 5 to 7 days.',
  ended: true,
};
/** ... and one still going on, so `in_progress=true` selects something whatever the seed's clock. */
const PLAIN = {
  user: 'my cafe order refunds please',
  agent: 'Refunds go back to the original payment method.',
  ended: false,
};

/**
 * The conversations read model on both databases, built from one seeded log, answers the same
 * through both repositories: listings with every filter, keyset and offset pages, single reads,
 * transcript search (sides, several words, accents, stems) and semantic search (inflections and
 * misspellings, ranked by the same bm25).
 */
maybe('conversations repository on PostgreSQL answers as on SQLite', () => {
  let server: PostgresServer;
  let dir: string;
  let store: EventStore;
  let sqliteSource: DataSource;
  let pgSource: DataSource;
  let sqlite: ConversationsRepository;
  let pg: ConversationsRepository;
  let agents: string[];
  /** the project of the copied conversations */
  let copiedTo: string;
  const schema = generationSchema(conversationsProjection.name, conversationsProjection.version, 1);
  const timings: Record<string, number[]> = {};

  /** Both answers, PostgreSQL's timed. */
  async function both<T>(label: string, ask: (repository: ConversationsRepository) => Promise<T>): Promise<[T, T]> {
    const a = await ask(sqlite);
    const started = performance.now();
    const b = await ask(pg);
    (timings[label] ??= []).push(performance.now() - started);
    return [a, b];
  }

  beforeAll(async () => {
    server = await startPostgresServer(binaries);
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'parley-pg-search-'));
    // only its event log is used: the seeding app's read models stay in SQLite files whatever the run's READ_MODEL_DB
    await seed({
      dataDir: dir,
      conversations: 250,
      agents: 2,
      days: 30,
      seed: 11,
      concurrency: 8,
      log: () => undefined,
      env: { READ_MODEL_DB: 'sqlite' },
    });
    store = await openSealedSqliteLog(dir);
    copiedTo = await appendVariants(store, [ACCENTED, PLAIN]);
    sqliteSource = await openReadModel(conversationsProjection, path.join(dir, 'check-conversations.sqlite'));
    pgSource = await openPostgresReadModel(conversationsProjection, server.url, schema);
    await catchUp(sqliteSource, conversationsProjection, store, { batchSize: 500 });
    await catchUp(pgSource, conversationsProjection, store, { batchSize: 500 });
    agents = (
      (await sqliteSource.query('SELECT DISTINCT agent_id AS agent FROM conversation ORDER BY agent_id')) as Array<{
        agent: string;
      }>
    ).map((r) => r.agent);
    expect(agents).toHaveLength(2);
    sqlite = new SqliteConversationsRepository(() => sqliteSource);
    pg = new PostgresConversationsRepository(() => pgSource);
  }, SETUP_TIMEOUT_MS);

  afterAll(async () => {
    const figures = Object.entries(timings).map(([label, ms]) => {
      const sorted = [...ms].sort((x, y) => x - y);
      return `${label}: n=${ms.length} p50=${sorted[Math.floor(sorted.length / 2)].toFixed(1)} ms max=${sorted[sorted.length - 1].toFixed(1)} ms`;
    });
    if (figures.length) console.log(`PostgreSQL repository timings (seeded read model):\n${figures.join('\n')}`);
    await sqliteSource?.destroy();
    if (pgSource) {
      await dropGenerationSchema(pgSource, schema);
      await pgSource.destroy();
    }
    await store?.close();
    await server?.stop();
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });

  it('lists the same pages with each filter', async () => {
    const [{ lo, hi }] = (await sqliteSource.query(
      'SELECT min(started_at) AS lo, max(started_at) AS hi FROM conversation',
    )) as Array<{ lo: string; hi: string }>;
    const middle = new Date((Date.parse(lo) + Date.parse(hi)) / 2).toISOString();
    const cases: Array<Partial<ListFilters>> = [
      {},
      { clientEnv: 'sandbox' },
      { clientEnv: 'pre-release' },
      { startTime: lo, endTime: middle },
      { startTime: middle },
      { endTime: middle },
      { channels: ['VOICE-SIP'] },
      { channels: ['WEBCHAT', 'SMS'] },
      { variantId: 'control' },
      { variantName: 'Variant B' },
      { inProgress: true },
      { inProgress: false },
      { inProgress: false, channels: ['CHAT', 'VOICE-SIP'], variantId: 'variant-b', startTime: lo, endTime: middle },
    ];
    let nonEmpty = 0;
    for (const agentId of agents) {
      for (const f of cases) {
        const [a, b] = await both('list (first page of 20)', (r) => r.list(agentId, filters(f), null, 20));
        expect({ f, rows: b.rows, more: b.more }).toEqual({ f, rows: a.rows, more: a.more });
        if (a.rows.length > 0) nonEmpty++;
      }
    }
    // the filters select something on the seed, and in_progress selects both ways
    expect(nonEmpty).toBeGreaterThan(cases.length * agents.length - 4);
    const [open, closed] = await Promise.all([
      pg.list(copiedTo, filters({ inProgress: true }), null, 5000),
      pg.list(copiedTo, filters({ inProgress: false }), null, 5000),
    ]);
    expect(open.rows.length).toBeGreaterThan(0);
    expect(open.rows.every((r) => r.endedAt === null)).toBe(true);
    expect(closed.rows.every((r) => r.endedAt !== null)).toBe(true);
  });

  it('pages by keyset to the end: the same ids in the same order, every conversation once', async () => {
    for (const agentId of agents) {
      for (const f of [filters(), filters({ channels: ['VOICE-SIP', 'CHAT'] })]) {
        const walk = async (r: ConversationsRepository) => {
          const out: ConversationSummary[] = [];
          let position: CursorPosition | null = null;
          for (;;) {
            const page = await r.list(agentId, f, position, 7);
            out.push(...page.rows);
            if (!page.more) return out;
            const last = page.rows[page.rows.length - 1];
            position = { after: { startedAt: last.startedAt, id: last.id } };
          }
        };
        const [a, b] = await both('keyset walk (pages of 7)', walk);
        expect(b.map((s) => s.id)).toEqual(a.map((s) => s.id));
        const [{ n }] = (await sqliteSource.query(
          `SELECT count(*) AS n FROM conversation WHERE agent_id = ? AND environment = 'live'${f.channels.length ? ` AND channel IN (${f.channels.map(() => '?').join(', ')})` : ''}`,
          [agentId, ...f.channels],
        )) as Array<{ n: number }>;
        expect(new Set(b.map((s) => s.id)).size).toBe(n);
        expect(n).toBeGreaterThan(10);
        const keys = b.map((s) => [s.startedAt, s.id]);
        expect(keys).toEqual([...keys].sort((x, y) => (x[0] === y[0] ? (x[1] < y[1] ? 1 : -1) : x[0] < y[0] ? 1 : -1)));
      }
    }
  });

  it('pages by offset the same', async () => {
    for (const offset of [0, 5, 10, 50, 1000]) {
      const [a, b] = await both('offset page of 5', (r) => r.list(agents[0], filters(), { offset }, 5));
      expect({ offset, ids: ids(b), more: b.more }).toEqual({ offset, ids: ids(a), more: a.more });
    }
  });

  it('reads single conversations, shared ids and turns the same', async () => {
    const all = (await sqlite.list(agents[0], filters(), null, 5000)).rows.map((r) => r.id);
    for (const id of all.slice(0, 40)) {
      const [a, b] = await both('one', (r) => r.one(agents[0], id));
      expect(b).toEqual(a);
      expect(a).not.toBeNull();
      expect(await pg.one(agents[1], id)).toBeNull();
      for (const withMetadata of [false, true]) {
        const [ta, tb] = await both('turns', (r) => r.turns(id, withMetadata));
        expect(tb).toEqual(ta);
      }
    }
    const [ma, mb] = await both('turnsOf (a page of 40)', (r) => r.turnsOf(all.slice(0, 40), true));
    expect([...mb.entries()]).toEqual([...ma.entries()]);
    expect([...mb.values()].some((turns) => turns.length > 1)).toBe(true);
    const [sa, sb] = await both('summaries', (r) => r.summaries([all[3], 'no-such-conversation', all[1]]));
    expect(sb).toEqual(sa);
    expect(sb.map((s) => s.id)).toEqual([all[3], all[1]]);
    const shared = (await sqliteSource.query(
      `SELECT agent_id AS agent, shared_id AS shared FROM conversation WHERE shared_id <> '' LIMIT 10`,
    )) as Array<{ agent: string; shared: string }>;
    expect(shared.length).toBeGreaterThan(0);
    for (const { agent, shared: sharedId } of shared) {
      const [a, b] = await both('bySharedId', (r) => r.bySharedId(agent, sharedId));
      expect(b).toEqual(a);
      expect(b?.sharedId).toBe(sharedId);
    }
    expect(await pg.bySharedId(agents[0], 'NO-SUCH-TICKET')).toBeNull();
  });

  const search = (
    query: string,
    type: SearchMode['type'] = 'transcript',
    turnType: SearchMode['turnType'] = null,
    f: Partial<ListFilters> = {},
  ) => filters({ ...f, search: { type, query, turnType } });

  /** Every conversation a search finds, in its order, through offset pages. */
  async function everything(r: ConversationsRepository, agentId: string, f: ListFilters): Promise<string[]> {
    const out: string[] = [];
    for (let offset = 0; ; offset += 25) {
      const page = await r.list(agentId, f, { offset }, 25);
      out.push(...ids(page));
      if (!page.more) return out;
    }
  }

  it('transcript search: the same conversations, newest first, on either side, with several words', async () => {
    const queries: Array<[string, SearchMode['turnType']]> = [
      ['refund', null],
      ['refund', 'user'],
      ['refund', 'agent'],
      ['cancel my order', null],
      ['where is my parcel', 'user'],
      ['working days', 'agent'],
      ['password reset email', null],
      ['tracking number', 'user'],
    ];
    for (const agentId of agents) {
      for (const [query, turnType] of queries) {
        const [a, b] = await both('transcript search (all pages of 25)', (r) =>
          everything(r, agentId, search(query, 'transcript', turnType)),
        );
        expect({ query, turnType, ids: b }).toEqual({ query, turnType, ids: a });
        expect(a.length).toBeGreaterThan(0);
      }
    }
    // the sides are told apart: "refund" on the user's side is not the same set as on the agent's
    const [user, agent] = await Promise.all([
      everything(pg, agents[0], search('refund', 'transcript', 'user')),
      everything(pg, agents[0], search('refund', 'transcript', 'agent')),
    ]);
    expect(user).not.toEqual(agent);
    // and a first page alone is the start of the whole result
    const [a, b] = await both('transcript search (first page of 5)', (r) =>
      r.list(agents[0], search('refund'), null, 5),
    );
    expect(ids(b)).toEqual(ids(a));
  });

  it('transcript search folds accents and stems the same', async () => {
    const found = async (r: ConversationsRepository, query: string, turnType: SearchMode['turnType'] = null) => {
      const out = new Set<string>();
      for (const agentId of agents)
        for (const id of await everything(r, agentId, search(query, 'transcript', turnType))) out.add(id);
      return [...out].sort();
    };
    for (const repository of [sqlite, pg]) {
      const cafe = await found(repository, 'cafe');
      expect(cafe).toHaveLength(2);
      expect(await found(repository, 'café')).toEqual(cafe);
      expect(await found(repository, 'CAFÉ', 'user')).toEqual(cafe);
      expect(await found(repository, 'creme brulee')).toHaveLength(1);
      expect(await found(repository, 'crème brûlée désolé')).toEqual(await found(repository, 'creme brulee'));
      expect(await found(repository, 'desole', 'user')).toEqual([]);
      expect(await found(repository, 'refunds')).toEqual(await found(repository, 'refund'));
      expect(await found(repository, 'refunded')).toEqual(await found(repository, 'refund'));
      expect(await found(repository, 'cancellation')).toEqual(await found(repository, 'cancel'));
    }
    for (const query of ['café', 'crème brûlée', 'refunds', 'cancellation', 'deliveries'])
      expect(await found(pg, query)).toEqual(await found(sqlite, query));
  });

  it('semantic search: the same conversations in the same bm25 order, for inflected and misspelt words', async () => {
    const queries = [
      'refunds',
      'cancelation of my order',
      'delivary',
      'pasword reset',
      'parcel tracking',
      'gift cards balance',
      'complaint about terrible service',
      'remboursement café',
    ];
    for (const agentId of agents) {
      for (const query of queries) {
        const [a, b] = await both('semantic search (all pages of 25)', (r) =>
          everything(r, agentId, search(query, 'semantic')),
        );
        expect({ query, ids: b }).toEqual({ query, ids: a });
        if (query !== 'remboursement café' || agentId === copiedTo) expect(a.length).toBeGreaterThan(0);
      }
    }
    // the misspelling expands to the indexed word: "delivary" finds what "delivery" finds (and more, its near spellings)
    const exact = new Set(await everything(pg, agents[0], search('delivery', 'semantic')));
    const misspelt = await everything(pg, agents[0], search('delivary', 'semantic'));
    expect([...exact].every((id) => misspelt.includes(id))).toBe(true);
    // within the filters, over a time range and a channel, and a first page alone
    const [{ lo, hi }] = (await sqliteSource.query(
      'SELECT min(started_at) AS lo, max(started_at) AS hi FROM conversation',
    )) as Array<{ lo: string; hi: string }>;
    const middle = new Date((Date.parse(lo) + Date.parse(hi)) / 2).toISOString();
    const [a, b] = await both('semantic search (first page of 10, filtered)', (r) =>
      r.list(
        agents[0],
        search('refund', 'semantic', null, { startTime: middle, endTime: hi, channels: ['VOICE-SIP'] }),
        null,
        10,
      ),
    );
    expect(ids(b)).toEqual(ids(a));
    expect(a.rows.length).toBeGreaterThan(0);
  });

  it('gives an embedding ranker the same candidates', async () => {
    for (const query of ['refunds', 'delivary']) {
      const [a, b] = await both('semanticCandidates', (r) =>
        r.semanticCandidates(agents[0], search(query, 'semantic'), 200),
      );
      const key = (c: { conversationId: string; text: string }) => `${c.conversationId}|${c.text}`;
      expect(b.map(key).sort()).toEqual(a.map(key).sort());
      expect(b.length).toBeGreaterThan(200);
    }
  });

  it.each([
    ['PostgreSQL, exactly (fewer matches than the exact-sample bound)', () => pg],
    [
      'PostgreSQL, by time probes (more matches than the bound)',
      () => new PostgresConversationsRepository(() => pgSource, 0),
    ],
    ['SQLite, exactly', () => sqlite],
    ['SQLite, by time probes', () => new SqliteConversationsRepository(() => sqliteSource, 0)],
  ])('samples at random among the filtered conversations only: %s', async (_how, repository) => {
    const sampler = repository();
    const [{ lo, hi }] = (await sqliteSource.query(
      'SELECT min(started_at) AS lo, max(started_at) AS hi FROM conversation',
    )) as Array<{ lo: string; hi: string }>;
    const f = filters({
      sample: true,
      startTime: lo,
      endTime: new Date(Date.parse(hi) + 1).toISOString(),
      channels: ['VOICE-SIP'],
    });
    const allowed = new Set(await everything(sqlite, agents[0], filters({ channels: ['VOICE-SIP'] })));
    expect(allowed.size).toBeGreaterThan(10);
    const seen = new Set<string>();
    for (let i = 0; i < 5; i++) {
      const page = await sampler.list(agents[0], f, null, 10);
      expect(page.more).toBe(false);
      expect(page.rows).toHaveLength(10);
      expect(new Set(ids(page)).size).toBe(10);
      for (const id of ids(page)) {
        expect(allowed.has(id)).toBe(true);
        seen.add(id);
      }
    }
    // random, not the same few every time
    expect(seen.size).toBeGreaterThan(10);
    // a narrow range among many other conversations: every draw holds min(limit, matches)
    const third = (await everything(sqlite, agents[0], filters())).slice(-3)[0];
    const range = {
      startTime: lo,
      endTime: new Date(Date.parse((await sqlite.one(agents[0], third))!.startedAt) + 1).toISOString(),
    };
    // what the range holds, listed (a copied conversation can share a start with its original)
    const oldest = await everything(sqlite, agents[0], filters(range));
    expect(oldest.length).toBeGreaterThanOrEqual(3);
    expect(oldest.length).toBeLessThanOrEqual(10);
    const narrow = filters({ sample: true, ...range });
    for (let i = 0; i < 10; i++) {
      const two = ids(await sampler.list(agents[0], narrow, null, 2));
      expect(two).toHaveLength(2);
      expect(new Set(two).size).toBe(2);
      for (const id of two) expect(oldest).toContain(id);
    }
    expect(ids(await sampler.list(agents[0], narrow, null, 10)).sort()).toEqual([...oldest].sort());
    // a range holding nothing samples nothing
    expect(
      (
        await sampler.list(
          agents[0],
          filters({ sample: true, startTime: '2001-01-01T00:00:00.000Z', endTime: '2001-02-01T00:00:00.000Z' }),
          null,
          5,
        )
      ).rows,
    ).toEqual([]);
  });

  it('is chosen by the data source the read model is on', async () => {
    const onPg = jest.spyOn(PostgresConversationsRepository.prototype, 'one');
    const onSqlite = jest.spyOn(SqliteConversationsRepository.prototype, 'one');
    try {
      const id = (await sqlite.list(agents[0], filters(), null, 1)).rows[0].id;
      expect((await conversationsRepository({ source: () => pgSource }).one(agents[0], id))?.id).toBe(id);
      expect(onPg).toHaveBeenCalledTimes(1);
      expect(onSqlite).not.toHaveBeenCalled();
      expect((await conversationsRepository({ source: () => sqliteSource }).one(agents[0], id))?.id).toBe(id);
      expect(onSqlite).toHaveBeenCalledTimes(1);
    } finally {
      onPg.mockRestore();
      onSqlite.mockRestore();
    }
  });

  it('sets search up again on a second generation of the same database, and dropping it leaves the first searching', async () => {
    const second = generationSchema(conversationsProjection.name, conversationsProjection.version, 2);
    const other = await openPostgresReadModel(conversationsProjection, server.url, second);
    try {
      await catchUp(other, conversationsProjection, store, { batchSize: 2000 });
      const [{ n }] = (await other.query(
        `SELECT count(*)::int AS n FROM turn_search WHERE terms @@ 'cafe'::tsquery`,
      )) as Array<{ n: number }>;
      expect(n).toBe(2);
    } finally {
      await dropGenerationSchema(other, second);
      await other.destroy();
    }
    expect(await everything(pg, agents[0], search('café'))).toEqual(
      await everything(sqlite, agents[0], search('café')),
    );
  }, 180_000);
});

/**
 * Copies of a seeded live conversation of several turns that ended, each with other words in its
 * second turn (the seed's texts are plain ASCII), ended or not, appended as new conversation
 * streams. Answers the project they belong to.
 */
async function appendVariants(
  store: EventStore,
  variants: Array<{ user: string; agent: string; ended: boolean }>,
): Promise<string> {
  const events = await store.readAll({ maxCount: 100_000 });
  const turnsOf = new Map<string, number>();
  for (const e of events) if (e.type === 'TurnRecorded') turnsOf.set(e.streamId, (turnsOf.get(e.streamId) ?? 0) + 1);
  const ended = new Set(events.filter((e) => e.type === 'ConversationEnded').map((e) => e.streamId));
  const source = events.find(
    (e) =>
      e.type === 'ConversationStarted' &&
      (e.data as { environment: string }).environment === 'live' &&
      (turnsOf.get(e.streamId) ?? 0) >= 3 &&
      ended.has(e.streamId),
  )!;
  const stream = await store.readStream(source.streamId);
  for (const variant of variants) {
    const id = `AS_CHAT_${randomUUID()}`;
    const copied = stream
      .filter((e) => variant.ended || e.type !== 'ConversationEnded')
      .map((e) => {
        let data = e.data as Record<string, unknown>;
        if (e.type === 'ConversationStarted') data = { ...data, conversationId: id };
        if (e.type === 'TurnRecorded' && data.turnIndex === 1)
          data = { ...data, userInput: variant.user, agentResponse: variant.agent };
        return { id: randomUUID(), type: e.type, data, metadata: e.metadata };
      });
    await store.append(`conversation-${id}`, copied);
  }
  return (source.data as { agentId: string }).agentId;
}
