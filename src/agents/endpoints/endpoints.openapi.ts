import { routeDocs } from '../../openapi/route-docs';
import { arr, bool, obj, str, time } from '../../openapi/schema-helpers';
import { EmbeddingEndpointsController } from './embedding-endpoints.controller';
import { LlmEndpointsController } from './llm-endpoints.controller';

const common = { name: str, base_url: str, has_api_key: bool, created_at: time };
const endpoint = obj(common);
const embeddingEndpoint = obj({ ...common, model: str });

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

export const embeddingEndpointsDocs = routeDocs(EmbeddingEndpointsController, 'operator', {
  add: {
    summary: 'Add an embeddings endpoint hybrid retrieval may name (its API key is stored sealed and never shown)',
    example: {
      name: 'acme-embed',
      base_url: 'https://embed.example.com',
      api_key: 'sk-…',
      model: 'text-embedding-3-small',
    },
    errors: [409],
    responses: { 201: { description: 'The endpoint', schema: embeddingEndpoint } },
  },
  list: {
    summary: 'The embeddings endpoints',
    responses: {
      200: { description: 'Every endpoint, by name', schema: obj({ endpoints: arr(embeddingEndpoint) }) },
    },
  },
  delete: {
    summary: 'Delete an embeddings endpoint (turns of agents naming it answer lexically)',
    errors: [404],
    responses: { 204: { description: 'Deleted' } },
  },
});
