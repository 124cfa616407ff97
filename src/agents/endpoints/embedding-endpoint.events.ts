import type { EndpointRecord } from './sealed-endpoints';

/** The operator's embeddings endpoints (hybrid retrieval): one stream for the whole installation. */
export const EMBEDDING_ENDPOINTS_STREAM = 'embedding-endpoints';

export interface EmbeddingEndpointRecord extends EndpointRecord {
  /** the model asked for in every call (`model` of the OpenAI-compatible embeddings request) */
  model: string;
}
