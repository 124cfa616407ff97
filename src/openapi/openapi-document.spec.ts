import type { Type } from '@nestjs/common';
import { buildOpenApiDocument } from './openapi-document';
import { routeDocs } from './route-docs';
import type { DeclaredRoute } from './route-table';

class ThingsController {
  list() {}
  get() {}
}

const route = (handler: string, fastifyPath: string, extra: Partial<DeclaredRoute> = {}): DeclaredRoute => ({
  controller: ThingsController as Type,
  handler,
  method: 'GET',
  path: fastifyPath.replace(/:(\w+)/g, '{$1}'),
  fastifyPath,
  variant: 0,
  variants: 1,
  pathParams: [...fastifyPath.matchAll(/:(\w+)/g)].map((m) => m[1]),
  headerParams: [],
  queryParams: [],
  status: 200,
  guards: [],
  ...extra,
});

const table = routeDocs(ThingsController, 'agents', {
  list: { summary: 'Things', responses: { 200: { description: 'ok', schema: { type: 'array' } } } },
});

describe('the OpenAPI document', () => {
  const routes = [
    route('list', '/v1/agents/:agentId/things', {
      auth: { header: 'x-api-key', requirement: { permission: 'agents', operator: true } },
    }),
    route('get', '/v1/:accountId/:projectId/things', { variants: 2 }),
    route('get', '/v2/:accountId/:projectId/things', { variants: 2, variant: 1 }),
    route('list', '/healthz-like'),
  ];

  test('an undocumented route is there, marked, with its parameters and the envelope', () => {
    const doc = buildOpenApiDocument(routes, [table], { region: 'us' });
    const op = doc.paths['/v2/{accountId}/{projectId}/things'].get;
    expect(op['x-undocumented']).toBe(true);
    expect(op.operationId).toBe('Things_get_v2');
    expect(doc.paths['/v1/{accountId}/{projectId}/things'].get.operationId).toBe('Things_get_v1');
    expect((op.parameters as Array<{ name: string }>).map((p) => p.name)).toEqual(['accountId', 'projectId']);
    expect(op.responses.default).toBeDefined();
  });

  test('the credential and permission come from the route; errors from what it checks', () => {
    const op = buildOpenApiDocument(routes, [table], { region: 'us' }).paths['/v1/agents/{agentId}/things'].get;
    expect(op.security).toEqual([{ apiKey: [] }, { operatorToken: [] }]);
    expect(op['x-permission']).toBe('agents');
    expect(Object.keys(op.responses)).toEqual(['200', '400', '401', '403', '429', 'default']);
  });

  test('with PUBLIC_DOMAIN, build and platform operations name their host; others stay on this one', () => {
    const doc = buildOpenApiDocument(routes, [table], { region: 'eu', publicDomain: 'example.test' });
    expect(doc.paths['/v1/agents/{agentId}/things'].get.servers).toEqual([
      expect.objectContaining({ url: 'https://api.eu.example.test' }),
    ]);
    expect(doc.paths['/v2/{accountId}/{projectId}/things'].get.servers).toEqual([
      expect.objectContaining({ url: 'https://api.euw-1.platform.example.test' }),
    ]);
    expect(doc.paths['/healthz-like'].get.servers).toBeUndefined();
    expect(
      buildOpenApiDocument(routes, [table], { region: 'eu' }).paths['/v1/agents/{agentId}/things'].get.servers,
    ).toBeUndefined();
  });
});
