import type { ConversationSummary, TurnView } from './conversation-view';

/** A search over the transcripts: by words, or by meaning (bm25 over inflections and near spellings). */
export interface SearchMode {
  type: 'transcript' | 'semantic';
  query: string;
  /** transcript search only: which side of the turns to search */
  turnType: 'user' | 'agent' | null;
}

/** The filters that select conversations: a cursor is bound to them (interface.md rule 2). */
export interface ListFilters {
  startTime: string | null;
  endTime: string | null;
  clientEnv: string;
  channels: string[];
  /** post-call analysis outcomes (contract §24): any of them; empty: every conversation, analysed or not */
  outcomes: string[];
  variantId: string | null;
  variantName: string | null;
  inProgress: boolean | null;
  search: SearchMode | null;
  sample: boolean;
}

/** Where the next page starts: after a row of the keyset order, or (search results) at an offset. */
export type CursorPosition = { after: { startedAt: string; id: string } } | { offset: number };

/** A candidate turn of a semantic search: its conversation and the text that would match. */
export interface Candidate {
  conversationId: string;
  text: string;
}

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
