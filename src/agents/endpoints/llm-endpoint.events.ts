import type { EndpointRecord } from './sealed-endpoints';

/** The operator's model endpoints: one stream for the whole installation. */
export const LLM_ENDPOINTS_STREAM = 'llm-endpoints';

export type LlmEndpointRecord = EndpointRecord;
