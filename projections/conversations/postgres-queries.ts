import { createHash } from 'node:crypto';
import type { DataSource } from 'typeorm';
import type { ConversationSummary, TurnView } from './conversation-view';
import { portableSql } from '../../src/platform/database/portable-sql';
import { bm25, type IndexTotals } from './bm25';
import type { Candidate, ConversationsRepository, CursorPosition, ListFilters, Page } from './query-types';
import { filtersSql } from './filters-sql';
import type { SearchMode } from './query-types';
import { drawSample, type SampleRow, type SampleSource } from './random-sample';
import { SEMANTIC_WINDOW, SMALL_SAMPLE_SET, TURNS_PER_QUERY, VOCABULARY_TTL_MS } from './search-limits';
import { fuzzyPrefixes, semanticAlternatives, transcriptWords } from './search-expression';
import { toTurn, type TurnRow } from './stored-turn';
import type { Pool, QueryResultRow } from 'pg';

/** A search query's phrases, each the lexemes PostgreSQL makes of one word (one, nearly always). */
type Phrase = string[];

interface Cached<T> {
  value: T;
  at: number;
}

/** What one data source (one generation) has counted or listed lately. */
interface Caches {
  vocabulary: Map<string, Cached<string[]>>;
  phraseRows: Map<string, Cached<number>>;
  totals: Cached<IndexTotals> | null;
}

/** Matching turns one transcript-search query reads at least before it sees whether the page is full. */
const TRANSCRIPT_CHUNK = 500;
const TRANSCRIPT_CHUNK_MAX = 20_000;
/** Prefixes or phrases one cache holds at most: past that it starts again (each entry is one cheap query). */
const CACHED_ENTRIES = 10_000;

/** A lexeme as tsquery input: quoted, so the query operators in it (there are none after turn_words_of) stay text. */
const tsLexeme = (lexeme: string) => `'${lexeme.replace(/\\/g, '\\\\').replace(/'/g, "''")}'`;

function tsPhrase(phrase: Phrase, weight: 'A' | 'B' | null): string {
  const lexemes = phrase.map((l) => (weight ? `${tsLexeme(l)}:${weight}` : tsLexeme(l)));
  return lexemes.length === 1 ? lexemes[0] : `(${lexemes.join(' <-> ')})`;
}

/**
 * The conversations read model on PostgreSQL (the turn_search table, its GIN index and turn_term
 * of conversations.postgres-setup.ts). Answers what the SQLite repository answers: the same
 * filters, the same keyset order in byte order (C-collated columns), transcript search newest
 * first, semantic search ranked by FTS5's own bm25 formula (bm25.ts) over the same window.
 *
 * Where the two can differ: the stemmers (Porter on SQLite, snowball English here) conflate a few
 * words differently (both conflate refund/refunds/refunded and cancel/cancellation), so a search
 * for such a word can match a turn on one backend only, and a misspelling can be near a stem on one
 * backend only; accent folding (unaccent against unicode61's remove_diacritics) differs on rare
 * letters (ß, ligatures), as does case folding outside Latin letters on a database in the C
 * locale. Where the same words are indexed, rankings are the same, ties included: bm25 is computed
 * from the same counts in the same order of operations (bm25.ts), and ties are broken by recency
 * on both. The index-wide counts bm25 needs (rows, tokens, rows holding each phrase) are kept
 * VOCABULARY_TTL_MS per data source, since PostgreSQL counts them by scanning where FTS5 reads a
 * stored total: for that long after new turns the scores can differ slightly from SQLite's, which
 * always counts now.
 *
 * Cost: listing and single reads are index seeks, as on SQLite. A search reads matching turns
 * newest first; the planner either walks turns backwards testing each (cheap when matches are
 * frequent and pass the filters) or reads every match through GIN then sorts (cheap when matches
 * are rare). The worst case, a frequent word whose matches the filters mostly reject, walks every
 * turn; SQLite's worst case is the same one (every posting of the word).
 */

export class PostgresConversationsRepository implements ConversationsRepository {
  private readonly caches = new WeakMap<DataSource, Caches>();
  private readonly statementNames = new Map<string, string>();

  constructor(
    private readonly source: () => DataSource,
    /** up to this many matches a sample is exact (tests lower it to reach the probes) */
    private readonly smallSampleSet = SMALL_SAMPLE_SET,
  ) {}

  async list(agentId: string, f: ListFilters, position: CursorPosition | null, limit: number): Promise<Page> {
    const { where, params, offset } = filtersSql(agentId, f, 'boolean', position);
    if (f.sample)
      return { rows: await drawSample(this.sampleSource(agentId, f), limit, this.smallSampleSet), more: false };
    if (f.search) return this.search(f.search, where, params, offset, limit);
    const found = await this.query<{ summary: string }>(
      `SELECT c.summary FROM conversation c WHERE ${where.join(' AND ')} ORDER BY c.started_at DESC, c.id DESC LIMIT ? OFFSET ?`,
      [...params, limit + 1, offset],
    );
    const rows = found.map((r) => JSON.parse(r.summary) as ConversationSummary);
    return rows.length > limit ? { rows: rows.slice(0, limit), more: true } : { rows, more: false };
  }

  private async search(
    search: SearchMode,
    where: string[],
    params: unknown[],
    offset: number,
    limit: number,
  ): Promise<Page> {
    const ids =
      search.type === 'transcript'
        ? await this.transcriptIds(search, where, params, offset + limit + 1)
        : await this.semanticIds(search.query, where, params);
    return { rows: await this.summaries(ids.slice(offset, offset + limit)), more: ids.length > offset + limit };
  }

  /**
   * Conversations with a turn holding every word, by their newest such turn, newest first. GIN
   * answers matches in no order, so the newest are read in chunks (keyset on the turn id) until
   * the page is full: the rows joined and returned follow the page, not the number of matches.
   */
  private async transcriptIds(
    search: SearchMode,
    where: string[],
    params: unknown[],
    wanted: number,
  ): Promise<string[]> {
    const phrases = (await this.phrases(transcriptWords(search.query))).filter((p) => p.length > 0);
    if (phrases.length === 0) return [];
    const weight = search.turnType === 'user' ? 'A' : search.turnType === 'agent' ? 'B' : null;
    const tsquery = phrases.map((p) => tsPhrase(p, weight)).join(' & ');
    const chunk = Math.min(Math.max(wanted * 2, TRANSCRIPT_CHUNK), TRANSCRIPT_CHUNK_MAX);
    const ids = new Set<string>();
    let before: number | null = null;
    for (;;) {
      const rows: Array<{ id: string; turn: number }> = await this.query(
        `SELECT c.id AS id, s.turn_id AS turn FROM turn_search s JOIN conversation c ON c.id = s.conversation_id
         WHERE s.terms @@ ?::tsquery AND ${where.join(' AND ')}${before === null ? '' : ' AND s.turn_id < ?'} ORDER BY s.turn_id DESC LIMIT ?`,
        [tsquery, ...params, ...(before === null ? [] : [before]), chunk],
      );
      for (const row of rows) {
        ids.add(row.id);
        if (ids.size >= wanted) return [...ids];
      }
      if (rows.length < chunk) return [...ids];
      before = rows[rows.length - 1].turn;
    }
  }

  /**
   * The newest SEMANTIC_WINDOW matching turns, each scored by bm25 as FTS5 scores it; conversations
   * by their best turn, ties by recency (the order they were first met, newest first).
   */
  private async semanticIds(query: string, where: string[], params: unknown[]): Promise<string[]> {
    const phrases = await this.semanticPhrases(query);
    if (phrases.length === 0) return [];
    const lexemes = [...new Set(phrases.flat())];
    const rows: Array<{ id: string; tokens: number; tf: number[] }> = await this.query(
      `SELECT c.id AS id, s.tokens AS tokens,
         ARRAY(SELECT coalesce(array_length(u.positions, 1), 0) FROM unnest(?::text[]) WITH ORDINALITY AS q(lexeme, i) LEFT JOIN unnest(s.terms) AS u ON u.lexeme = q.lexeme ORDER BY q.i) AS tf
       FROM turn_search s JOIN conversation c ON c.id = s.conversation_id
       WHERE s.terms @@ ?::tsquery AND ${where.join(' AND ')} ORDER BY s.turn_id DESC LIMIT ?`,
      [lexemes, phrases.map((p) => tsPhrase(p, null)).join(' | '), ...params, SEMANTIC_WINDOW],
    );
    if (rows.length === 0) return [];
    const totals = await this.totals();
    const phraseRows = await Promise.all(phrases.map((p) => this.rowsWith(p)));
    const at = phrases.map((p) => p.map((l) => lexemes.indexOf(l)));
    const best = new Map<string, number>();
    for (const row of rows) {
      // a phrase of several lexemes (a word PostgreSQL splits): counted by its rarest lexeme, near enough to FTS5's phrase count
      const frequencies = at.map((indexes) => Math.min(...indexes.map((i) => row.tf[i])));
      const score = bm25(totals, phraseRows, frequencies, row.tokens);
      const seen = best.get(row.id);
      if (seen === undefined || score < seen) best.set(row.id, score);
    }
    return [...best.keys()]
      .map((id, order) => ({ id, order, score: best.get(id)! }))
      .sort((a, b) => a.score - b.score || a.order - b.order)
      .map((r) => r.id);
  }

  /** The semantic alternatives (search-expression.ts), each a phrase of bm25 as FTS5 would have it. */
  private async semanticPhrases(query: string): Promise<Phrase[]> {
    const prefixes = fuzzyPrefixes(query);
    const terms = new Map(
      await Promise.all(prefixes.map(async (prefix) => [prefix, await this.vocabulary(prefix)] as const)),
    );
    const alternatives = semanticAlternatives(query, (prefix) => terms.get(prefix) ?? []);
    if (alternatives === null) return [];
    return (await this.phrases(alternatives)).filter((p) => p.length > 0);
  }

  async semanticCandidates(agentId: string, f: ListFilters, perSource: number): Promise<Candidate[]> {
    const { where, params } = filtersSql(agentId, f, 'boolean');
    const text = (r: { u: string; a: string }) => (r.u !== '' ? r.u : r.a);
    const out: Candidate[] = [];
    const phrases = await this.semanticPhrases(f.search!.query);
    if (phrases.length > 0) {
      const lexical: Array<{ id: string; u: string; a: string }> = await this.query(
        `SELECT c.id AS id, t.user_input AS u, t.agent_response AS a
         FROM turn_search s JOIN conversation_turn t ON t.id = s.turn_id JOIN conversation c ON c.id = s.conversation_id
         WHERE s.terms @@ ?::tsquery AND ${where.join(' AND ')} ORDER BY s.turn_id DESC LIMIT ?`,
        [phrases.map((p) => tsPhrase(p, null)).join(' | '), ...params, perSource],
      );
      for (const r of lexical) out.push({ conversationId: r.id, text: text(r) });
    }
    const recent: Array<{ id: string; u: string; a: string }> = await this.query(
      `SELECT c.id AS id, t.user_input AS u, t.agent_response AS a
       FROM conversation c JOIN conversation_turn t ON t.conversation_id = c.id
       WHERE ${where.join(' AND ')} AND t.user_input <> '' ORDER BY c.started_at DESC, c.id DESC, t.turn_index LIMIT ?`,
      [...params, perSource],
    );
    for (const r of recent) out.push({ conversationId: r.id, text: text(r) });
    return out;
  }

  async summaries(ids: string[]): Promise<ConversationSummary[]> {
    if (ids.length === 0) return [];
    const rows = await this.query<{ id: string; summary: string }>(
      'SELECT id, summary FROM conversation WHERE id = ANY(?::text[])',
      [ids],
    );
    const byId = new Map(rows.map((r) => [r.id, r.summary]));
    return ids.filter((id) => byId.has(id)).map((id) => JSON.parse(byId.get(id)!) as ConversationSummary);
  }

  /**
   * The queries of a sample (random-sample.ts). A round of probes is one query: a sample of
   * 5,000 is a few round trips, not thousands.
   */
  private sampleSource(agentId: string, f: ListFilters): SampleSource {
    // a sample has no pages: the filters alone, as on SQLite, whatever cursor came with it
    const { where, params } = filtersSql(agentId, f, 'boolean');
    const conditions = where.join(' AND ');
    return {
      count: async (cap) =>
        (
          await this.query<{ n: number }>(
            `SELECT count(*)::int AS n FROM (SELECT 1 FROM conversation c WHERE ${conditions} LIMIT ?) m`,
            [...params, cap],
          )
        )[0].n,
      shuffled: async (limit) =>
        this.query<SampleRow>(
          `SELECT c.id, c.summary FROM conversation c WHERE ${conditions} ORDER BY random() LIMIT ?`,
          [...params, limit],
        ),
      bounds: async () => {
        const [b] = await this.query<{ first: string | null; last: string | null }>(
          `SELECT min(c.started_at) AS first, max(c.started_at) AS last FROM conversation c WHERE ${conditions}`,
          params,
        );
        return b.first === null || b.last === null ? null : { first: b.first, last: b.last };
      },
      firstAtOrAfter: async (instants) => {
        const rows = await this.query<{ id: string | null; summary: string | null }>(
          `SELECT m.id, m.summary FROM unnest(?::text[]) WITH ORDINALITY AS p(at, i)
           LEFT JOIN LATERAL (SELECT c.id, c.summary FROM conversation c WHERE ${conditions} AND c.started_at >= p.at ORDER BY c.started_at, c.id LIMIT 1) m ON true
           ORDER BY p.i`,
          [instants, ...params],
        );
        return rows.map((row) => (row.id === null ? null : { id: row.id, summary: row.summary! }));
      },
      walk: async (from, count) => {
        const after = from === null ? '' : ' AND c.started_at >= ?';
        return this.query<SampleRow>(
          `SELECT c.id, c.summary FROM conversation c WHERE ${conditions}${after} ORDER BY c.started_at, c.id LIMIT ?`,
          [...params, ...(from === null ? [] : [from]), count],
        );
      },
    };
  }

  async one(agentId: string, id: string): Promise<ConversationSummary | null> {
    const [row] = await this.query<{ summary: string }>(
      'SELECT summary FROM conversation WHERE id = ? AND agent_id = ?',
      [id, agentId],
    );
    return row ? (JSON.parse(row.summary) as ConversationSummary) : null;
  }

  async bySharedId(agentId: string, sharedId: string): Promise<ConversationSummary | null> {
    const [row] = await this.query<{ summary: string }>(
      'SELECT summary FROM conversation WHERE agent_id = ? AND shared_id = ? ORDER BY started_at DESC, id DESC LIMIT 1',
      [agentId, sharedId],
    );
    return row ? (JSON.parse(row.summary) as ConversationSummary) : null;
  }

  async turns(conversationId: string, withMetadata: boolean): Promise<TurnView[]> {
    const rows = await this.query<TurnRow>(
      `SELECT turn${withMetadata ? ', metadata' : ''} FROM conversation_turn WHERE conversation_id = ? ORDER BY turn_index`,
      [conversationId],
    );
    return rows.map((r) => toTurn(r));
  }

  async turnsOf(conversationIds: string[], withMetadata: boolean): Promise<Map<string, TurnView[]>> {
    const out = new Map<string, TurnView[]>(conversationIds.map((id) => [id, []]));
    for (let i = 0; i < conversationIds.length; i += TURNS_PER_QUERY) {
      const ids = conversationIds.slice(i, i + TURNS_PER_QUERY);
      const rows = await this.query<TurnRow & { conversation_id: string }>(
        `SELECT conversation_id, turn${withMetadata ? ', metadata' : ''} FROM conversation_turn WHERE conversation_id = ANY(?::text[]) ORDER BY conversation_id, turn_index`,
        [ids],
      );
      for (const row of rows) out.get(row.conversation_id)!.push(toTurn(row));
    }
    return out;
  }

  /** Each word's lexemes as the index made them (turn_lexemes: accents folded, punctuation split, stemmed), in word order. */
  private async phrases(words: string[]): Promise<Phrase[]> {
    if (words.length === 0) return [];
    const rows = await this.query<{ lexemes: string[] }>(
      `SELECT ARRAY(SELECT u.lexeme FROM unnest(turn_lexemes(q.word)) AS u ORDER BY u.positions[1]) AS lexemes
       FROM unnest(?::text[]) WITH ORDINALITY AS q(word, i) ORDER BY q.i`,
      [words],
    );
    return rows.map((r) => r.lexemes);
  }

  /** The indexed terms starting with a prefix (turn_term, byte order as fts5vocab lists them), kept VOCABULARY_TTL_MS as on SQLite. */
  private async vocabulary(prefix: string): Promise<string[]> {
    return this.cached('vocabulary', prefix, async () => {
      const rows = await this.query<{ term: string }>(
        'SELECT term FROM turn_term WHERE term >= ? AND term < ? ORDER BY term LIMIT 5000',
        [prefix, `${prefix}\uffff`],
      );
      return rows.map((r) => r.term);
    });
  }

  /** Turns holding a phrase, in the whole index (bm25's IDF, as FTS5 counts it): through the GIN index. */
  private async rowsWith(phrase: Phrase): Promise<number> {
    const tsquery = tsPhrase(phrase, null);
    return this.cached('phraseRows', tsquery, async () => {
      const [row] = await this.query<{ n: number }>(
        'SELECT count(*)::float8 AS n FROM turn_search WHERE terms @@ ?::tsquery',
        [tsquery],
      );
      return row.n;
    });
  }

  /** Turns and tokens in the whole index (bm25's N and average length). */
  private async totals(): Promise<IndexTotals> {
    const caches = this.cachesOf(this.source());
    const now = Date.now();
    if (caches.totals && now - caches.totals.at < VOCABULARY_TTL_MS) return caches.totals.value;
    const [row] = await this.query<{ rows: number; tokens: number }>(
      'SELECT count(*)::float8 AS rows, coalesce(sum(tokens), 0)::float8 AS tokens FROM turn_search',
      [],
    );
    caches.totals = { value: row, at: now };
    return row;
  }

  private async cached<T>(kind: 'vocabulary' | 'phraseRows', key: string, load: () => Promise<T>): Promise<T> {
    const cache = this.cachesOf(this.source())[kind] as Map<string, Cached<T>>;
    const now = Date.now();
    const hit = cache.get(key);
    if (hit && now - hit.at < VOCABULARY_TTL_MS) return hit.value;
    const value = await load();
    if (cache.size >= CACHED_ENTRIES) cache.clear();
    cache.set(key, { value, at: now });
    return value;
  }

  private cachesOf(source: DataSource): Caches {
    let caches = this.caches.get(source);
    if (!caches) this.caches.set(source, (caches = { vocabulary: new Map(), phraseRows: new Map(), totals: null }));
    return caches;
  }

  /**
   * Straight to the driver's pool, as a named prepared statement: TypeORM's query runner (a
   * checkout, events, a release) and parsing and planning each call cost as much as a page of
   * 100 here. pg prepares a name once per connection.
   */
  private async query<T>(sql: string, params: unknown[]): Promise<T[]> {
    const source = this.source();
    const text = portableSql(source, sql);
    let name = this.statementNames.get(text);
    // named by the text itself: every repository on a pool agrees on what a name means
    if (name === undefined)
      this.statementNames.set(text, (name = `conv_${createHash('sha1').update(text).digest('hex').slice(0, 24)}`));
    const pool = (source.driver as unknown as { master: Pool }).master;
    return (await pool.query<T & QueryResultRow>({ name, text, values: params })).rows;
  }
}
