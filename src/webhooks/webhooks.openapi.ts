import { ref, routeDocs } from '../openapi/route-docs';
import { arr, bool, int, map, nullable, obj, str, time } from '../openapi/schema-helpers';
import { WebhookEndpointsController } from './webhook-endpoints.controller';

const endpoint = obj({
  id: str,
  name: str,
  url: str,
  enabled: bool,
  event_types: arr(str),
  headers: { ...map(str), description: 'values masked (`***`)' },
  timeout_ms: int,
  signing_secret: { type: 'string', description: 'in full when created, masked afterwards' },
  created_at: time,
  updated_at: time,
});
const attempt = obj({
  delivery_id: str,
  event_id: str,
  event_type: str,
  attempt: int,
  status_code: nullable(int),
  error: nullable(str),
  duration_ms: int,
  attempted_at: time,
  outcome: str,
  next_attempt_at: nullable(time),
  delivery_status: str,
});

export const webhookEndpointsDocs = routeDocs(
  WebhookEndpointsController,
  'webhook-endpoints',
  {
    list: {
      summary: "The account's webhook endpoints",
      responses: { 200: { description: 'The endpoints', schema: obj({ data: arr(ref('WebhookEndpoint')) }) } },
    },
    create: {
      summary: 'Create a webhook endpoint (10 per account; the signing secret is shown once)',
      errors: [409, 422],
      example: { name: 'ops', url: 'https://example.com/hooks', event_types: ['alerts.triggered'] },
      responses: { 201: { description: 'The endpoint', schema: ref('WebhookEndpoint') } },
    },
    get: {
      summary: 'One webhook endpoint',
      errors: [404, 422],
      responses: { 200: { description: 'The endpoint', schema: ref('WebhookEndpoint') } },
    },
    patch: {
      summary: 'Change a webhook endpoint',
      errors: [404, 422],
      responses: { 200: { description: 'The endpoint', schema: ref('WebhookEndpoint') } },
    },
    delete: {
      summary: 'Delete a webhook endpoint',
      errors: [404, 422],
      responses: { 204: { description: 'Deleted' } },
    },
    rotateSecret: {
      summary: 'Replace the signing secret (shown once)',
      errors: [404, 422],
      responses: { 200: { description: 'The new secret', schema: obj({ signing_secret: str }) } },
    },
    deliveries: {
      summary: 'Recent delivery attempts, newest first',
      errors: [404, 422],
      query: [{ name: 'limit', schema: { type: 'string', pattern: '^[0-9]+$' } }],
      responses: { 200: { description: 'The attempts', schema: obj({ data: arr(attempt) }) } },
    },
  },
  { WebhookEndpoint: endpoint },
);
