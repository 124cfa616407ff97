import Ajv2020 from 'ajv/dist/2020';
import { declaredRoutes } from '../../src/openapi/route-table';
import { ModulesContainer } from '@nestjs/core';
import { parseRouteTree } from '../fuzz/route-catalog';
import { request, startTestApp, type TestApp } from '../helpers/test-app';

interface Operation {
  tags: string[];
  responses: Record<string, { content?: Record<string, { schema?: unknown }> }>;
  requestBody?: { content: Record<string, { schema: unknown }> };
  security?: unknown;
  [extension: string]: unknown;
}
interface Doc {
  openapi: string;
  tags: Array<{ name: string }>;
  paths: Record<string, Record<string, Operation>>;
  components: { securitySchemes: Record<string, { name?: string; scheme?: string }>; schemas: Record<string, unknown> };
}

/**
 * Every route the app registers is in /openapi.json with an answer schema (issue 34). The list
 * comes from Fastify's router, so a route added anywhere fails here until its controller's table
 * (`src/<context>/<context>.openapi.ts`, listed in src/app.route-docs.ts) documents it.
 */
describe('the OpenAPI document covers every route (issue 34)', () => {
  let t: TestApp;
  let document: Doc;

  beforeAll(async () => {
    // the test clock: its route exists only then, and must be documented too
    t = await startTestApp({ PARLEY_TEST_CLOCK: '1' });
    const answer = await request(`${t.url}/openapi.json`);
    expect(answer.status).toBe(200);
    document = answer.body;
  });

  afterAll(async () => {
    await t?.close();
  });

  const fastifyRoutes = () =>
    parseRouteTree(t.app.getHttpAdapter().getInstance().printRoutes({ commonPrefix: false })).map((r) => ({
      ...r,
      path: r.url.replace(/:([A-Za-z0-9_]+)/g, '{$1}'),
    }));

  /** Where the author of a route should add its document. */
  function hint(method: string, url: string): string {
    const route = declaredRoutes(t.app.get(ModulesContainer)).find((r) => r.method === method && r.fastifyPath === url);
    if (!route) return `${method} ${url}: not a Nest controller route; serve it from a controller`;
    const name = route.controller.name;
    return (
      `${method} ${url} (${name}.${route.handler}): add \`${route.handler}\` to routeDocs(${name}, …) in the ` +
      `context's *.openapi.ts, and list that table in src/app.route-docs.ts`
    );
  }

  /** Routes served but left out of the document on purpose (`@ApiExcludeController`, e.g. Studio's files). */
  const excludedRoutes = () =>
    new Set(
      declaredRoutes(t.app.get(ModulesContainer))
        .filter((r) => r.excluded)
        .map((r) => `${r.method} ${r.fastifyPath}`),
    );

  test('is OpenAPI 3.1 with the four credential schemes and a tag per family', () => {
    expect(document.openapi).toBe('3.1.0');
    const schemes = Object.values(document.components.securitySchemes).map((s) => s.name ?? s.scheme);
    expect(schemes).toEqual(
      expect.arrayContaining(['x-api-key', 'X-Service-Auth-Token', 'x-operator-token', 'bearer']),
    );
    const tags = document.tags.map((tag: { name: string }) => tag.name);
    for (const family of ['agents', 'conversations', 'operator', 'sms', 'alerts', 'messaging'])
      expect(tags).toContain(family);
  });

  test('every registered route is documented, with a schema for each answer that has a body', () => {
    const problems: string[] = [];
    const routes = fastifyRoutes();
    expect(routes.length).toBeGreaterThan(50);
    const excluded = excludedRoutes();
    expect(excluded.size).toBeGreaterThan(0);
    for (const { method, url, path } of routes) {
      const operation = document.paths[path]?.[method.toLowerCase()];
      if (excluded.has(`${method} ${url}`)) {
        if (operation) problems.push(`excluded with @ApiExclude…, yet in the document: ${method} ${url}`);
        continue;
      }
      if (!operation || operation['x-undocumented']) {
        problems.push(`undocumented: ${hint(method, url)}`);
        continue;
      }
      const successes = Object.entries(operation.responses).filter(([status]) => /^2/.test(status));
      if (successes.length === 0) problems.push(`no success answer: ${hint(method, url)}`);
      for (const [status, response] of successes) {
        if (status === '204') continue;
        const media = Object.values(response.content ?? {});
        if (media.length === 0 || media.some((m) => m.schema === undefined))
          problems.push(`no schema for ${status}: ${hint(method, url)}`);
      }
      if (!operation.responses.default) problems.push(`no error envelope: ${method} ${url}`);
      if (!document.tags.some((tag: { name: string }) => operation.tags.includes(tag.name)))
        problems.push(`tag ${operation.tags} is not a family of openapi-tags.ts: ${method} ${url}`);
    }
    expect(problems).toEqual([]);
  });

  test('documents no route the app does not serve', () => {
    const served = new Set(fastifyRoutes().map((r) => `${r.method} ${r.path}`));
    const stale = Object.entries(document.paths).flatMap(([path, operations]) =>
      Object.keys(operations as object)
        .map((method) => `${method.toUpperCase()} ${path}`)
        .filter((key) => !served.has(key)),
    );
    expect(stale).toEqual([]);
  });

  test('every schema in it is valid JSON Schema 2020-12, and every $ref resolves', () => {
    const ajv = new Ajv2020({ strict: false, logger: false });
    const schemas: Array<[string, unknown]> = [];
    const refs: string[] = [];
    const walk = (node: unknown, where: string) => {
      if (!node || typeof node !== 'object') return;
      for (const [key, value] of Object.entries(node)) {
        if (key === 'schema') schemas.push([`${where}/schema`, value]);
        if (key === '$ref' && typeof value === 'string') refs.push(value);
        walk(value, `${where}/${key}`);
      }
    };
    walk(document.paths, '#/paths');
    walk(document.components.schemas, '#/components/schemas');
    for (const [name, schema] of Object.entries(document.components.schemas))
      schemas.push([`#/components/schemas/${name}`, schema]);
    expect(schemas.length).toBeGreaterThan(100);
    const invalid = schemas
      .filter(([, schema]) => !ajv.validateSchema(schema as object))
      .map(([where]) => `${where}: ${ajv.errorsText()}`);
    expect(invalid).toEqual([]);
    const dangling = refs.filter((ref) => !document.components.schemas[ref.replace('#/components/schemas/', '')]);
    expect(dangling).toEqual([]);
  });

  test('request bodies are the validation rules: a DTO field the pipe refuses, the schema refuses', async () => {
    const schema = document.components.schemas.CreateAgentDto;
    expect(schema).toMatchObject({
      type: 'object',
      additionalProperties: false,
      required: ['name', 'responseSettings'],
      properties: { name: { type: 'string', minLength: 1, maxLength: 200 } },
    });
    const operation = document.paths['/v1/accounts/{accountId}/agents'].post;
    expect(operation.requestBody?.content['application/json'].schema).toEqual({
      $ref: '#/components/schemas/CreateAgentDto',
    });
    expect(operation.security).toEqual([{ apiKey: [] }]);
    expect(operation['x-permission']).toBe('agents');
  });
});
