import { ref, routeDocs } from '../../openapi/route-docs';
import { int, map, obj, oneOf, str, time } from '../../openapi/schema-helpers';
import { AgentToolsController, ToolSecretController } from './agent-tools.controller';

const tool = obj(
  {
    id: str,
    name: str,
    description: str,
    url: str,
    method: oneOf('POST'),
    parameters: map(),
    headers: map(oneOf('***')),
    timeout_ms: int,
  },
  { signing_secret: str },
);

export const agentToolsDocs = routeDocs(
  AgentToolsController,
  'agent-tools',
  {
    list: {
      summary: "A branch's tools (header values never shown)",
      errors: [404],
      responses: { 200: { description: 'The tools', schema: { type: 'array', items: ref('AgentTool') } } },
    },
    add: {
      summary:
        "Add a tool (a name is unique per branch; not on `main`); the agent's first tool shows the tool secret once",
      errors: [404, 409, 422],
      example: {
        name: 'order_status',
        description: 'Looks an order up by its number',
        url: 'https://tools.example.com/orders/status',
        parameters: { type: 'object', properties: { order: { type: 'string' } }, required: ['order'] },
        headers: { Authorization: 'Bearer t0ken' },
        timeout_ms: 3000,
      },
      responses: { 201: { description: 'The tool', schema: ref('AgentTool') } },
    },
    get: {
      summary: 'One tool',
      errors: [404],
      responses: { 200: { description: 'The tool', schema: ref('AgentTool') } },
    },
    edit: {
      summary: 'Change a tool (`headers` replaces the whole object)',
      errors: [404, 409, 422],
      responses: { 204: { description: 'Changed' } },
    },
    remove: {
      summary: 'Remove a tool',
      errors: [404, 409, 422],
      responses: { 204: { description: 'Removed' } },
    },
  },
  { AgentTool: tool },
);

export const toolSecretDocs = routeDocs(ToolSecretController, 'agent-tools', {
  get: {
    summary: "The agent's tool secret, masked (it signs every tool call)",
    errors: [404],
    responses: { 200: { description: 'The secret, masked', schema: obj({ signing_secret: str, issued_at: time }) } },
  },
  rotate: {
    summary: 'A new tool secret, shown in full this once; the old one signs nothing from now on',
    errors: [404],
    responses: { 200: { description: 'The new secret', schema: obj({ signing_secret: str }) } },
  },
});
