import type Database from 'better-sqlite3';
import type { ConversationSummary, TurnView } from '../conversations/conversation-view';
import { rawConnection } from '../platform/database/raw-connection';
import { ReadModels } from '../read-models/read-models.service';
import type { CursorPosition } from './cursor';
import type { ListFilters } from './list-query';
import { semanticMatch, transcriptMatch } from './search-expression';

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

  constructor(private readonly readModels: ReadModels) {}

  /** A page of a listing: after a keyset position, or at an offset (legacy and search pages). */
  list(agentId: string, f: ListFilters, position: CursorPosition | null, limit: number): Page {
    const { where, params } = filtersSql(agentId, f);
    if (position && 'after' in position) {
      where.push('(c.started_at < ? OR (c.started_at = ? AND c.id < ?))');
      params.push(position.after.startedAt, position.after.startedAt, position.after.id);
    }
    const offset = position && 'offset' in position ? position.offset : 0;
    if (f.sample) {
      return this.page(`SELECT c.summary FROM conversation c WHERE ${where.join(' AND ')} ORDER BY random() LIMIT ?`, [...params, limit], limit, false);
    }
    if (f.search) {
      const match = f.search.type === 'transcript' ? transcriptMatch(f.search.query, f.search.turnType) : semanticMatch(f.search.query, (prefix) => this.vocabulary(prefix));
      if (match === null) return { rows: [], more: false };
      // best turn per conversation, then the conversations' filters; ties newest first
      const sql = `SELECT c.summary FROM (
          SELECT t.conversation_id AS id, min(turn_fts.rank) AS score
          FROM turn_fts JOIN conversation_turn t ON t.id = turn_fts.rowid
          WHERE turn_fts MATCH ? GROUP BY t.conversation_id
        ) m JOIN conversation c ON c.id = m.id
        WHERE ${where.join(' AND ')}
        ORDER BY m.score, c.started_at DESC, c.id DESC LIMIT ? OFFSET ?`;
      return this.page(sql, [match, ...params, limit + 1, offset], limit, true);
    }
    const sql = `SELECT c.summary FROM conversation c INDEXED BY conversation_list WHERE ${where.join(' AND ')} ORDER BY c.started_at DESC, c.id DESC LIMIT ? OFFSET ?`;
    return this.page(sql, [...params, limit + 1, offset], limit, true);
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

  turns(conversationId: string): TurnView[] {
    const rows = this.statement('SELECT turn FROM conversation_turn WHERE conversation_id = ? ORDER BY turn_index').all(conversationId) as Array<{ turn: string }>;
    return rows.map((r) => JSON.parse(r.turn) as TurnView);
  }

  /** Indexed terms (stemmed) starting with `prefix`: the candidates of fuzzy matching. */
  private vocabulary(prefix: string): string[] {
    const rows = this.statement('SELECT term FROM turn_vocab WHERE term >= ? AND term < ? LIMIT 5000').all(prefix, `${prefix}\uffff`) as Array<{ term: string }>;
    return rows.map((r) => r.term);
  }

  private page(sql: string, params: unknown[], limit: number, paged: boolean): Page {
    const rows = (this.statement(sql).all(...params) as Array<{ summary: string }>).map((r) => JSON.parse(r.summary) as ConversationSummary);
    const more = paged && rows.length > limit;
    return { rows: more ? rows.slice(0, limit) : rows, more };
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
