import { routeDocs } from '../../openapi/route-docs';
import { arr, bool, obj, str, time } from '../../openapi/schema-helpers';
import { LlmEndpointsController } from './llm-endpoints.controller';

const endpoint = obj({ name: str, base_url: str, has_api_key: bool, created_at: time });

export const llmEndpointsDocs = routeDocs(LlmEndpointsController, 'operator', {
  add: {
    summary: 'Add a model endpoint agents may name (its API key is stored sealed and never shown)',
    example: { name: 'acme-llm', base_url: 'https://llm.example.com', api_key: 'sk-…' },
    errors: [409],
    responses: { 201: { description: 'The endpoint', schema: endpoint } },
  },
  list: {
    summary: 'The model endpoints',
    responses: { 200: { description: 'Every endpoint, by name', schema: obj({ endpoints: arr(endpoint) }) } },
  },
  delete: {
    summary: 'Delete a model endpoint (turns of agents naming it fall back to their embedded answer)',
    errors: [404],
    responses: { 204: { description: 'Deleted' } },
  },
});
