import type { DataSource } from 'typeorm';
import type { ReadModels } from '../../src/read-models/read-models.service';
import { PostgresConversationsRepository } from './postgres-queries';
import type { ConversationsRepository } from './query-types';
import { SqliteConversationsRepository } from './sqlite-queries';

export type { Candidate, ConversationsRepository, CursorPosition, ListFilters, Page, SearchMode } from './query-types';
export { SEMANTIC_WINDOW } from './search-limits';

/** The Nest token of the repository. */
export const CONVERSATIONS_REPOSITORY = Symbol('ConversationsRepository');

/**
 * The repository of the database the conversations read model is on (READ_MODEL_DB), asked at
 * each call: the data source exists only once the read model's first generation is built.
 */
export function conversationsRepository(readModels: Pick<ReadModels, 'source'>): ConversationsRepository {
  const source = () => readModels.source(CONVERSATIONS_READ_MODEL);
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
// the summary fold, for an audit replay of one conversation as of any event (conversations API, Studio)
export {
  platformDurationS,
  replayConversation,
  totalDurationS,
  type ConversationSummary,
  type TurnView,
} from './conversation-view';
import { CONVERSATIONS_READ_MODEL } from './name';

export { CONVERSATIONS_READ_MODEL } from './name';
