import type Database from 'better-sqlite3';
import type { ConversationSummary, TurnView } from '../conversations/conversation-view';
import { rawConnection } from '../platform/database/raw-connection';
import { ReadModels } from '../read-models/read-models.service';
import type { CursorPosition } from './cursor';
import type { Candidate } from './embeddings';
import type { ListFilters } from './list-query';
import { semanticMatch, transcriptMatch } from './search-expression';

/** Matching turns a semantic search ranks at most (the newest ones). */
export const SEMANTIC_WINDOW = 2000;
/** How long a prefix's indexed terms are reused for fuzzy expansion (see vocabulary()). */
const VOCABULARY_TTL_MS = 5 * 60_000;

/** Conversations whose turns one query reads (a page of 100 is one query; 5,000 are ten). */
const TURNS_PER_QUERY = 500;

interface TurnRow {
  turn: string;
  metadata?: string;
}

function toTurn(row: TurnRow): TurnView {
  const turn = JSON.parse(row.turn) as TurnView;
  turn.metadata = row.metadata === undefined ? {} : (JSON.parse(row.metadata) as Record<string, unknown>);
  return turn;
}

export interface Page {
  rows: ConversationSummary[];
  /** another page follows */
  more: boolean;
}

/**
 * The conversations read model's queries, as SQL on the read-only connection. Listing is keyset
 * on (started_at, id), newest first, over the index that starts with (agent, environment): a page
 * deep in the result costs what the first costs. Searches rank with FTS5's bm25.
 */
export class ConversationsRepository {
  private readonly statements = new WeakMap<Database.Database, Map<string, Database.Statement>>();
  private readonly vocabularies = new WeakMap<Database.Database, Map<string, { terms: string[]; at: number }>>();

  constructor(private readonly readModels: ReadModels) {}

  /** A page of a listing: after a keyset position, or at an offset (legacy and search pages). */
  list(agentId: string, f: ListFilters, position: CursorPosition | null, limit: number): Page {
    const { where, params } = filtersSql(agentId, f);
    if (position && 'after' in position) {
      // The row value is what lets SQLite seek the index to the cursor; the same condition spelt
      // with OR walks every entry before it (855k at depth, 180 ms instead of the first page's cost).
      where.push('(c.started_at, c.id) < (?, ?)');
      params.push(position.after.startedAt, position.after.id);
    }
    const offset = position && 'offset' in position ? position.offset : 0;
    if (f.sample) return { rows: this.sample(where, params, limit), more: false };
    if (f.search) return this.search(f, where, params, offset, limit);
    const sql = `SELECT c.summary FROM conversation c INDEXED BY conversation_list WHERE ${where.join(' AND ')} ORDER BY c.started_at DESC, c.id DESC LIMIT ? OFFSET ?`;
    const rows = (this.statement(sql).all(...params, limit + 1, offset) as Array<{ summary: string }>).map((r) => JSON.parse(r.summary) as ConversationSummary);
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
    const match = search.type === 'transcript' ? transcriptMatch(search.query, search.turnType) : semanticMatch(search.query, (prefix) => this.vocabulary(prefix));
    if (match === null) return { rows: [], more: false };
    const sql = `SELECT c.id AS id${search.type === 'semantic' ? ', turn_fts.rank AS score' : ''}
      FROM turn_fts JOIN conversation_turn t ON t.id = turn_fts.rowid JOIN conversation c ON c.id = t.conversation_id
      WHERE turn_fts MATCH ? AND ${where.join(' AND ')} ORDER BY turn_fts.rowid DESC`;
    const wanted = offset + limit + 1;
    const best = new Map<string, number>();
    let scanned = 0;
    for (const row of this.statement(sql).iterate(match, ...params) as IterableIterator<{ id: string; score?: number }>) {
      const seen = best.get(row.id);
      if (seen === undefined || (row.score ?? 0) < seen) best.set(row.id, row.score ?? 0);
      if (search.type === 'transcript' ? best.size >= wanted : ++scanned >= SEMANTIC_WINDOW) break;
    }
    let ids = [...best.keys()];
    if (search.type === 'semantic') ids = ids.map((id, order) => ({ id, order, score: best.get(id)! })).sort((a, b) => a.score - b.score || a.order - b.order).map((r) => r.id);
    const page = ids.slice(offset, offset + limit);
    return { rows: page.map((id) => this.summary(id)!).filter(Boolean), more: ids.length > offset + limit };
  }

  /**
   * What an embedding ranker compares with the query: the newest turns that share a word (or an
   * inflection, or a near spelling) with it, and the newest turns of the filtered conversations
   * whatever their words, so a turn that means the same in other words can still rank first.
   */
  semanticCandidates(agentId: string, f: ListFilters, perSource: number): Candidate[] {
    const { where, params } = filtersSql(agentId, f);
    const text = (r: { u: string; a: string }) => (r.u !== '' ? r.u : r.a);
    const out: Candidate[] = [];
    const match = semanticMatch(f.search!.query, (prefix) => this.vocabulary(prefix));
    if (match !== null) {
      const lexical = this.statement(`SELECT c.id AS id, t.user_input AS u, t.agent_response AS a
        FROM turn_fts JOIN conversation_turn t ON t.id = turn_fts.rowid JOIN conversation c ON c.id = t.conversation_id
        WHERE turn_fts MATCH ? AND ${where.join(' AND ')} ORDER BY turn_fts.rowid DESC LIMIT ?`);
      for (const r of lexical.all(match, ...params, perSource) as Array<{ id: string; u: string; a: string }>) out.push({ conversationId: r.id, text: text(r) });
    }
    const recent = this.statement(`SELECT c.id AS id, t.user_input AS u, t.agent_response AS a
      FROM conversation c INDEXED BY conversation_list JOIN conversation_turn t ON t.conversation_id = c.id
      WHERE ${where.join(' AND ')} AND t.user_input != '' ORDER BY c.started_at DESC, c.id DESC LIMIT ?`);
    for (const r of recent.all(...params, perSource) as Array<{ id: string; u: string; a: string }>) out.push({ conversationId: r.id, text: text(r) });
    return out;
  }

  /** Summaries by id, in the given order (ids not found are left out). */
  summaries(ids: string[]): ConversationSummary[] {
    return ids.map((id) => this.summary(id)).filter((s): s is ConversationSummary => s !== null);
  }

  /**
   * Random conversations among those passing the filters: probes at random rowids, each taking the
   * first match at or after it, so a sample never sorts the whole table.
   */
  private sample(where: string[], params: unknown[], limit: number): ConversationSummary[] {
    const bounds = this.statement('SELECT min(rowid) AS lo, max(rowid) AS hi FROM conversation').get() as { lo: number | null; hi: number | null };
    if (bounds.lo === null || bounds.hi === null) return [];
    const probe = this.statement(`SELECT c.rowid AS r, c.summary FROM conversation c WHERE c.rowid >= ? AND ${where.join(' AND ')} ORDER BY c.rowid LIMIT 1`);
    const wrap = this.statement(`SELECT c.rowid AS r, c.summary FROM conversation c WHERE ${where.join(' AND ')} ORDER BY c.rowid LIMIT 1`);
    const picked = new Map<number, ConversationSummary>();
    for (let attempt = 0; attempt < limit * 8 && picked.size < limit; attempt++) {
      const at = bounds.lo + Math.floor(Math.random() * (bounds.hi - bounds.lo + 1));
      const row = (probe.get(at, ...params) ?? (attempt === 0 ? wrap.get(...params) : undefined)) as { r: number; summary: string } | undefined;
      if (!row) continue;
      if (!picked.has(row.r)) picked.set(row.r, JSON.parse(row.summary) as ConversationSummary);
    }
    return [...picked.values()];
  }

  private summary(id: string): ConversationSummary | null {
    const row = this.statement('SELECT summary FROM conversation WHERE id = ?').get(id) as { summary: string } | undefined;
    return row ? (JSON.parse(row.summary) as ConversationSummary) : null;
  }

  one(agentId: string, id: string): ConversationSummary | null {
    const row = this.statement('SELECT summary FROM conversation WHERE id = ? AND agent_id = ?').get(id, agentId) as { summary: string } | undefined;
    return row ? (JSON.parse(row.summary) as ConversationSummary) : null;
  }

  /** The newest conversation of the project that stored this shared id at handoff. */
  bySharedId(agentId: string, sharedId: string): ConversationSummary | null {
    const row = this.statement('SELECT summary FROM conversation WHERE agent_id = ? AND shared_id = ? ORDER BY started_at DESC, id DESC LIMIT 1').get(agentId, sharedId) as
      | { summary: string }
      | undefined;
    return row ? (JSON.parse(row.summary) as ConversationSummary) : null;
  }

  /** One conversation's turns in order; the metadata only when asked for (most reads skip it). */
  turns(conversationId: string, withMetadata: boolean): TurnView[] {
    const rows = this.statement(`SELECT turn${withMetadata ? ', metadata' : ''} FROM conversation_turn WHERE conversation_id = ? ORDER BY turn_index`).all(conversationId) as TurnRow[];
    return rows.map((r) => toTurn(r));
  }

  /** The turns of a page's conversations, in as few queries as the page allows. */
  turnsOf(conversationIds: string[], withMetadata: boolean): Map<string, TurnView[]> {
    const out = new Map<string, TurnView[]>(conversationIds.map((id) => [id, []]));
    for (let i = 0; i < conversationIds.length; i += TURNS_PER_QUERY) {
      const ids = conversationIds.slice(i, i + TURNS_PER_QUERY);
      const sql = `SELECT conversation_id, turn${withMetadata ? ', metadata' : ''} FROM conversation_turn WHERE conversation_id IN (${ids.map(() => '?').join(', ')}) ORDER BY conversation_id, turn_index`;
      for (const row of this.statement(sql).all(...ids) as Array<TurnRow & { conversation_id: string }>) out.get(row.conversation_id)!.push(toTurn(row));
    }
    return out;
  }

  /** Indexed terms (stemmed) starting with `prefix`: the candidates of fuzzy matching. */
  /**
   * The indexed terms starting with a prefix, for fuzzy expansion. fts5vocab counts each term's
   * documents as it lists it (15 to 170 ms a prefix over 14M turns), so a prefix's terms are kept
   * for VOCABULARY_TTL_MS: a word first seen since then is still found exactly, only not yet as a
   * near spelling of another.
   */
  private vocabulary(prefix: string): string[] {
    const db = rawConnection(this.readModels.source('conversations'));
    let cache = this.vocabularies.get(db);
    if (!cache) this.vocabularies.set(db, (cache = new Map()));
    const now = Date.now();
    const hit = cache.get(prefix);
    if (hit && now - hit.at < VOCABULARY_TTL_MS) return hit.terms;
    const rows = this.statement('SELECT term FROM turn_vocab WHERE term >= ? AND term < ? LIMIT 5000').all(prefix, `${prefix}\uffff`) as Array<{ term: string }>;
    const terms = rows.map((r) => r.term);
    cache.set(prefix, { terms, at: now });
    return terms;
  }

  private statement(sql: string): Database.Statement {
    const db = rawConnection(this.readModels.source('conversations'));
    let cache = this.statements.get(db);
    if (!cache) this.statements.set(db, (cache = new Map()));
    let statement = cache.get(sql);
    if (!statement) cache.set(sql, (statement = db.prepare(sql)));
    return statement;
  }
}

function filtersSql(agentId: string, f: ListFilters): { where: string[]; params: unknown[] } {
  const where = ['c.agent_id = ?', 'c.environment = ?'];
  const params: unknown[] = [agentId, f.clientEnv];
  if (f.startTime) {
    where.push('c.started_at >= ?');
    params.push(f.startTime);
  }
  if (f.endTime) {
    where.push('c.started_at < ?');
    params.push(f.endTime);
  }
  if (f.channels.length > 0) {
    where.push(`c.channel IN (${f.channels.map(() => '?').join(', ')})`);
    params.push(...f.channels);
  }
  if (f.variantId) {
    where.push('c.variant_id = ?');
    params.push(f.variantId);
  }
  if (f.variantName) {
    where.push('c.variant_name = ?');
    params.push(f.variantName);
  }
  if (f.inProgress !== null) {
    where.push('c.in_progress = ?');
    params.push(f.inProgress ? 1 : 0);
  }
  return { where, params };
}
