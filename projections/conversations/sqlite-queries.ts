import type Database from 'better-sqlite3';
import type { DataSource } from 'typeorm';
import type { ConversationSummary, TurnView } from './conversation-view';
import { rawConnection } from '../../src/platform/database/raw-connection';
import type { Candidate, ConversationsRepository, CursorPosition, ListFilters, Page } from './query-types';
import { filtersSql } from './filters-sql';
import { drawSample, type SampleRow, type SampleSource } from './random-sample';
import { SEMANTIC_WINDOW, SMALL_SAMPLE_SET, TURNS_PER_QUERY, VOCABULARY_TTL_MS } from './search-limits';
import { semanticMatch, transcriptMatch } from './search-expression';
import { toTurn, type TurnRow } from './stored-turn';

/**
 * The conversations read model on SQLite, as prepared statements on the read-only connection.
 * Listing is keyset on (started_at, id), newest first, over the index that starts with (agent,
 * environment): a page deep in the result costs what the first costs. Searches rank with FTS5's
 * bm25. better-sqlite3 answers synchronously: the promises are already settled.
 */
export class SqliteConversationsRepository implements ConversationsRepository {
  private readonly statements = new WeakMap<Database.Database, Map<string, Database.Statement>>();
  private readonly vocabularies = new WeakMap<Database.Database, Map<string, { terms: string[]; at: number }>>();

  constructor(
    private readonly source: () => DataSource,
    /** up to this many matches a sample is exact (tests lower it to reach the probes) */
    private readonly smallSampleSet = SMALL_SAMPLE_SET,
  ) {}

  async list(agentId: string, f: ListFilters, position: CursorPosition | null, limit: number): Promise<Page> {
    const { where, params, offset } = filtersSql(agentId, f, 'integer', position);
    if (f.sample)
      return { rows: await drawSample(this.sampleSource(agentId, f), limit, this.smallSampleSet), more: false };
    if (f.search) return this.search(f, where, params, offset, limit);
    const sql = `SELECT c.summary FROM conversation c INDEXED BY conversation_list WHERE ${where.join(' AND ')} ORDER BY c.started_at DESC, c.id DESC LIMIT ? OFFSET ?`;
    const rows = (this.statement(sql).all(...params, limit + 1, offset) as Array<{ summary: string }>).map(
      (r) => JSON.parse(r.summary) as ConversationSummary,
    );
    return rows.length > limit ? { rows: rows.slice(0, limit), more: true } : { rows, more: false };
  }

  /**
   * Search walks the matching turns newest first (FTS5 streams a term's postings in rowid order,
   * and turns are stored as they happen), keeping those whose conversation passes the filters, and
   * stops as soon as it can answer: the cost follows the page, not the number of matches.
   * Transcript results are newest first. Semantic results are ranked by bm25 (the best turn of each
   * conversation) among the newest SEMANTIC_WINDOW matching turns: relevance over recent history
   * at a bounded cost, instead of scoring every match of a common word in the whole log.
   */
  private search(f: ListFilters, where: string[], params: unknown[], offset: number, limit: number): Page {
    const search = f.search!;
    const match =
      search.type === 'transcript'
        ? transcriptMatch(search.query, search.turnType)
        : semanticMatch(search.query, (prefix) => this.vocabulary(prefix));
    if (match === null) return { rows: [], more: false };
    const sql = `SELECT c.id AS id${search.type === 'semantic' ? ', turn_fts.rank AS score' : ''}
      FROM turn_fts JOIN conversation_turn t ON t.id = turn_fts.rowid JOIN conversation c ON c.id = t.conversation_id
      WHERE turn_fts MATCH ? AND ${where.join(' AND ')} ORDER BY turn_fts.rowid DESC`;
    const wanted = offset + limit + 1;
    const best = new Map<string, number>();
    let scanned = 0;
    for (const row of this.statement(sql).iterate(match, ...params) as IterableIterator<{
      id: string;
      score?: number;
    }>) {
      const seen = best.get(row.id);
      if (seen === undefined || (row.score ?? 0) < seen) best.set(row.id, row.score ?? 0);
      if (search.type === 'transcript' ? best.size >= wanted : ++scanned >= SEMANTIC_WINDOW) break;
    }
    let ids = [...best.keys()];
    if (search.type === 'semantic')
      ids = ids
        .map((id, order) => ({ id, order, score: best.get(id)! }))
        .sort((a, b) => a.score - b.score || a.order - b.order)
        .map((r) => r.id);
    const page = ids.slice(offset, offset + limit);
    return { rows: page.map((id) => this.summary(id)!).filter(Boolean), more: ids.length > offset + limit };
  }

  async semanticCandidates(agentId: string, f: ListFilters, perSource: number): Promise<Candidate[]> {
    const { where, params } = filtersSql(agentId, f, 'integer');
    const text = (r: { u: string; a: string }) => (r.u !== '' ? r.u : r.a);
    const out: Candidate[] = [];
    const match = semanticMatch(f.search!.query, (prefix) => this.vocabulary(prefix));
    if (match !== null) {
      const lexical = this.statement(`SELECT c.id AS id, t.user_input AS u, t.agent_response AS a
        FROM turn_fts JOIN conversation_turn t ON t.id = turn_fts.rowid JOIN conversation c ON c.id = t.conversation_id
        WHERE turn_fts MATCH ? AND ${where.join(' AND ')} ORDER BY turn_fts.rowid DESC LIMIT ?`);
      for (const r of lexical.all(match, ...params, perSource) as Array<{ id: string; u: string; a: string }>)
        out.push({ conversationId: r.id, text: text(r) });
    }
    const recent = this.statement(`SELECT c.id AS id, t.user_input AS u, t.agent_response AS a
      FROM conversation c INDEXED BY conversation_list JOIN conversation_turn t ON t.conversation_id = c.id
      WHERE ${where.join(' AND ')} AND t.user_input != '' ORDER BY c.started_at DESC, c.id DESC LIMIT ?`);
    for (const r of recent.all(...params, perSource) as Array<{ id: string; u: string; a: string }>)
      out.push({ conversationId: r.id, text: text(r) });
    return out;
  }

  async summaries(ids: string[]): Promise<ConversationSummary[]> {
    return ids.map((id) => this.summary(id)).filter((s): s is ConversationSummary => s !== null);
  }

  /** The queries of a sample (random-sample.ts), each a seek or walk of the listing index. */
  private sampleSource(agentId: string, f: ListFilters): SampleSource {
    // a probe's instant replaces the range's start rather than adding a second lower bound:
    // SQLite would seek to the range's start and test the probe's bound on every entry after it
    const matching = (from: string | null = null) => {
      const { where, params } = filtersSql(agentId, from === null ? f : { ...f, startTime: from }, 'integer');
      return { conditions: where.join(' AND '), params };
    };
    const walk = (from: string | null, count: number): SampleRow[] => {
      const { conditions, params } = matching(from);
      return this.statement(
        `SELECT c.id, c.summary FROM conversation c INDEXED BY conversation_list WHERE ${conditions} ORDER BY c.started_at, c.id LIMIT ?`,
      ).all(...params, count) as SampleRow[];
    };
    const edge = (order: 'ASC' | 'DESC'): string | undefined => {
      const { conditions, params } = matching();
      const sql = `SELECT c.started_at AS at FROM conversation c INDEXED BY conversation_list WHERE ${conditions} ORDER BY c.started_at ${order}, c.id ${order} LIMIT 1`;
      return (this.statement(sql).get(...params) as { at: string } | undefined)?.at;
    };
    return {
      count: async (cap) => {
        const { conditions, params } = matching();
        return (
          this.statement(`SELECT count(*) AS n FROM (SELECT 1 FROM conversation c WHERE ${conditions} LIMIT ?)`).get(
            ...params,
            cap,
          ) as { n: number }
        ).n;
      },
      shuffled: async (limit) => {
        // rowids first, from the index where the filters allow: the summaries of the picks alone are read
        const { conditions, params } = matching();
        const rowids = this.statement(
          `SELECT c.rowid AS r FROM conversation c WHERE ${conditions} ORDER BY random() LIMIT ?`,
        ).all(...params, limit) as Array<{ r: number }>;
        const byRowid = this.statement('SELECT id, summary FROM conversation WHERE rowid = ?');
        return rowids.map(({ r }) => byRowid.get(r) as SampleRow);
      },
      bounds: async () => {
        const first = edge('ASC');
        const last = edge('DESC');
        return first === undefined || last === undefined ? null : { first, last };
      },
      firstAtOrAfter: async (instants) => instants.map((at) => walk(at, 1)[0] ?? null),
      walk: async (from, count) => walk(from, count),
    };
  }

  private summary(id: string): ConversationSummary | null {
    const row = this.statement('SELECT summary FROM conversation WHERE id = ?').get(id) as
      { summary: string } | undefined;
    return row ? (JSON.parse(row.summary) as ConversationSummary) : null;
  }

  async one(agentId: string, id: string): Promise<ConversationSummary | null> {
    const row = this.statement('SELECT summary FROM conversation WHERE id = ? AND agent_id = ?').get(id, agentId) as
      { summary: string } | undefined;
    return row ? (JSON.parse(row.summary) as ConversationSummary) : null;
  }

  async bySharedId(agentId: string, sharedId: string): Promise<ConversationSummary | null> {
    const row = this.statement(
      'SELECT summary FROM conversation WHERE agent_id = ? AND shared_id = ? ORDER BY started_at DESC, id DESC LIMIT 1',
    ).get(agentId, sharedId) as { summary: string } | undefined;
    return row ? (JSON.parse(row.summary) as ConversationSummary) : null;
  }

  async turns(conversationId: string, withMetadata: boolean): Promise<TurnView[]> {
    const rows = this.statement(
      `SELECT turn${withMetadata ? ', metadata' : ''} FROM conversation_turn WHERE conversation_id = ? ORDER BY turn_index`,
    ).all(conversationId) as TurnRow[];
    return rows.map((r) => toTurn(r));
  }

  async turnsOf(conversationIds: string[], withMetadata: boolean): Promise<Map<string, TurnView[]>> {
    const out = new Map<string, TurnView[]>(conversationIds.map((id) => [id, []]));
    for (let i = 0; i < conversationIds.length; i += TURNS_PER_QUERY) {
      const ids = conversationIds.slice(i, i + TURNS_PER_QUERY);
      const sql = `SELECT conversation_id, turn${withMetadata ? ', metadata' : ''} FROM conversation_turn WHERE conversation_id IN (${ids.map(() => '?').join(', ')}) ORDER BY conversation_id, turn_index`;
      for (const row of this.statement(sql).all(...ids) as Array<TurnRow & { conversation_id: string }>)
        out.get(row.conversation_id)!.push(toTurn(row));
    }
    return out;
  }

  /**
   * The indexed terms (stemmed) starting with a prefix, for fuzzy expansion. fts5vocab counts each
   * term's documents as it lists it (slow on a large log), so a prefix's terms are
   * kept for VOCABULARY_TTL_MS: a word first seen since then is still found exactly, only not yet
   * as a near spelling of another.
   */
  private vocabulary(prefix: string): string[] {
    const db = rawConnection(this.source());
    let cache = this.vocabularies.get(db);
    if (!cache) this.vocabularies.set(db, (cache = new Map()));
    const now = Date.now();
    const hit = cache.get(prefix);
    if (hit && now - hit.at < VOCABULARY_TTL_MS) return hit.terms;
    const rows = this.statement('SELECT term FROM turn_vocab WHERE term >= ? AND term < ? LIMIT 5000').all(
      prefix,
      `${prefix}\uffff`,
    ) as Array<{ term: string }>;
    const terms = rows.map((r) => r.term);
    cache.set(prefix, { terms, at: now });
    return terms;
  }

  private statement(sql: string): Database.Statement {
    const db = rawConnection(this.source());
    let cache = this.statements.get(db);
    if (!cache) this.statements.set(db, (cache = new Map()));
    let statement = cache.get(sql);
    if (!statement) cache.set(sql, (statement = db.prepare(sql)));
    return statement;
  }
}
