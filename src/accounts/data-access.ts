import type { Permission } from './permissions';

/** What the project lets API responses carry (contract §4); no configuration = nothing optional. */
export interface DataAccessConfig {
  responseMetrics: string[];
  showTranscripts: boolean;
}

export const DEFAULT_DATA_ACCESS: DataAccessConfig = { responseMetrics: [], showTranscripts: false };

/** The parts of a conversation this filter decides on; everything else passes through. */
export interface FilterableConversation {
  id: string;
  account_id: string;
  project_id: string;
  started_at: string;
  metrics: Record<string, unknown>;
  turns: unknown[];
  num_turns: number;
  [field: string]: unknown;
}

/**
 * Data appears only when the key holds the permission AND the project enabled it (interface.md):
 * - a key without `conversations` sees the basic fields only;
 * - `metrics` keeps only the enabled names (empty when none is enabled);
 * - `turns` is empty when transcripts are off, while `num_turns` stays true.
 */
export function filterConversation<T extends FilterableConversation>(
  conversation: T,
  keyPermissions: readonly Permission[],
  config: DataAccessConfig,
): T | Pick<T, 'id' | 'account_id' | 'project_id' | 'started_at'> {
  if (!keyPermissions.includes('conversations')) {
    const { id, account_id, project_id, started_at } = conversation;
    return { id, account_id, project_id, started_at };
  }
  const enabled = new Set(config.responseMetrics);
  const metrics = Object.fromEntries(Object.entries(conversation.metrics).filter(([name]) => enabled.has(name)));
  return { ...conversation, metrics, turns: config.showTranscripts ? conversation.turns : [] };
}
