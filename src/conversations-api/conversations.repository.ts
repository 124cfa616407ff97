import type { DataSource } from 'typeorm';
import type { ConversationSummary, TurnView } from '../conversations/conversation-view';
import type { ReadModels } from '../read-models/read-models.service';
import type { CursorPosition } from './cursor';
import type { Candidate } from './embeddings';
import type { ListFilters } from './list-query';
import { PostgresConversationsRepository } from './postgres-conversations.repository';
import { SqliteConversationsRepository } from './sqlite-conversations.repository';

export { SEMANTIC_WINDOW } from './search-limits';

export interface Page {
  rows: ConversationSummary[];
  /** another page follows */
  more: boolean;
}

/**
 * The conversations read model's queries. Both backends answer the same: listing keyset on
 * (started_at, id) newest first, or at an offset; transcript search newest first; semantic search
 * ranked by bm25 among the newest SEMANTIC_WINDOW matching turns.
 */
export interface ConversationsRepository {
  /** A page of a listing: after a keyset position, or at an offset (legacy and search pages). */
  list(agentId: string, f: ListFilters, position: CursorPosition | null, limit: number): Promise<Page>;
  /**
   * What an embedding ranker compares with the query: the newest turns that share a word (or an
   * inflection, or a near spelling) with it, and the newest turns of the filtered conversations
   * whatever their words, so a turn that means the same in other words can still rank first.
   */
  semanticCandidates(agentId: string, f: ListFilters, perSource: number): Promise<Candidate[]>;
  /** Summaries by id, in the given order (ids not found are left out). */
  summaries(ids: string[]): Promise<ConversationSummary[]>;
  one(agentId: string, id: string): Promise<ConversationSummary | null>;
  /** The newest conversation of the project that stored this shared id at handoff. */
  bySharedId(agentId: string, sharedId: string): Promise<ConversationSummary | null>;
  /** One conversation's turns in order; the metadata only when asked for (most reads skip it). */
  turns(conversationId: string, withMetadata: boolean): Promise<TurnView[]>;
  /** The turns of a page's conversations, in as few queries as the page allows. */
  turnsOf(conversationIds: string[], withMetadata: boolean): Promise<Map<string, TurnView[]>>;
}

/** The Nest token of the repository. */
export const CONVERSATIONS_REPOSITORY = Symbol('ConversationsRepository');

/**
 * The repository of the database the conversations read model is on (READ_MODEL_DB), asked at
 * each call: the data source exists only once the read model's first generation is built.
 */
export function conversationsRepository(readModels: Pick<ReadModels, 'source'>): ConversationsRepository {
  const source = () => readModels.source('conversations');
  const sqlite = new SqliteConversationsRepository(source);
  const postgres = new PostgresConversationsRepository(source);
  const on = (): ConversationsRepository => (isPostgres(source()) ? postgres : sqlite);
  return {
    list: (...args) => on().list(...args),
    semanticCandidates: (...args) => on().semanticCandidates(...args),
    summaries: (...args) => on().summaries(...args),
    one: (...args) => on().one(...args),
    bySharedId: (...args) => on().bySharedId(...args),
    turns: (...args) => on().turns(...args),
    turnsOf: (...args) => on().turnsOf(...args),
  };
}

const isPostgres = (source: DataSource) => source.options.type === 'postgres';
