import type { DomainEvent } from '../../commands/decider';

/** The operator's model endpoints: one stream for the whole installation. */
export const LLM_ENDPOINTS_STREAM = 'llm-endpoints';

export interface LlmEndpointRecord {
  name: string;
  baseUrl: string;
  /** the API key sealed with the server secret (AES-256-GCM); null when the endpoint needs none */
  sealedApiKey: string | null;
  addedAt: string;
}

export type LlmEndpointEvent =
  | DomainEvent<'LlmEndpointAdded', LlmEndpointRecord>
  | DomainEvent<'LlmEndpointDeleted', { name: string; deletedAt: string }>;
