import type { Type } from '@nestjs/common';
import { familyOf, PLATFORM_REGION } from '../platform/http/hosts';
import type { JsonSchema } from './json-schema';
import { TAGS } from './openapi-tags';
import type { QueryParameter, RouteDoc, RouteDocTable } from './route-docs';
import type { DeclaredRoute } from './route-table';
import { ValidationSchemas } from './validation-schema';

/** Where the document is served, and the hosts its operations answer on (contract §1). */
export interface DocumentSettings {
  publicDomain?: string | null;
  region: string;
}

export type OpenApiDocument = JsonSchema & { paths: Record<string, Record<string, Operation>> };
type Operation = JsonSchema & { responses: Record<string, JsonSchema> };

const ENVELOPE_REF = { $ref: '#/components/schemas/ErrorEnvelope' };

/** contract §2: one error body everywhere; the Alerts and SMS families add fields to it. */
const ERROR_ENVELOPE: JsonSchema = {
  type: 'object',
  required: ['success', 'error', 'error_id', 'error_code', 'error_message', 'data'],
  properties: {
    success: { const: false },
    error: { type: 'string' },
    error_id: { type: 'string', description: 'the correlation id, also in the X-Correlation-Id header' },
    error_code: { type: 'string', pattern: '^[A-Z][A-Z0-9_]*$' },
    error_message: { type: 'string' },
    data: {},
    message: { type: 'string', description: 'Alerts API: the same message' },
    errors: {
      type: 'array',
      description: 'Alerts API: one row per invalid field',
      items: { type: 'object', properties: { field: { type: 'string' }, message: { type: 'string' } } },
    },
    detail: { type: 'string', description: 'SMS API: the same message' },
  },
  example: {
    success: false,
    error: 'name is required',
    error_id: '5f0c6a8e-2b1d-4c3e-9f7a-0d2b1c3e4f5a',
    error_code: 'VALIDATION_ERROR',
    error_message: 'name is required',
    data: null,
  },
};

const SECURITY_SCHEMES: JsonSchema = {
  apiKey: { type: 'apiKey', in: 'header', name: 'x-api-key', description: 'An API key of the account' },
  serviceToken: {
    type: 'apiKey',
    in: 'header',
    name: 'X-Service-Auth-Token',
    description: 'An API key, in the header the outbound calling and SMS families use',
  },
  operatorToken: {
    type: 'apiKey',
    in: 'header',
    name: 'x-operator-token',
    description: 'The operator token (OPERATOR_TOKEN, or DATA_DIR/operator-token)',
  },
  bearer: {
    type: 'http',
    scheme: 'bearer',
    bearerFormat: 'JWT',
    description: 'A messaging access token from POST /api/v1/access-token',
  },
  connectorToken: {
    type: 'apiKey',
    in: 'header',
    name: 'X-Token',
    description: "A messaging connector's token (with X-Host, the site's domain)",
  },
};

/** Guards by class name -> the scheme they check (names, so this file imports no context). */
const GUARD_SCHEMES: Record<string, string> = {
  OperatorGuard: 'operatorToken',
  AccessTokenGuard: 'bearer',
  ConnectorTokenGuard: 'connectorToken',
};

const STATUS_TEXT: Record<number, string> = {
  200: 'OK',
  201: 'Created',
  202: 'Accepted',
  204: 'No Content',
  400: 'Bad input (the field is named in the message)',
  401: 'Missing, unknown, deleted or expired credential',
  403: "Another account's resource, an agent outside the key's scope, or a missing permission",
  404: 'Not found',
  409: 'Conflict',
  410: 'Gone',
  413: 'Body larger than 1 MiB',
  422: 'Refused by the rules of the resource',
  429: 'Rate limited (Retry-After)',
  503: 'Read models lagging (READ_MODEL_LAGGING) or not ready',
};

/** Builds the OpenAPI 3.1 document from the app's routes and the route tables. */
export function buildOpenApiDocument(
  routes: DeclaredRoute[],
  tables: RouteDocTable[],
  settings: DocumentSettings,
): OpenApiDocument {
  const components: Record<string, JsonSchema> = {};
  for (const table of tables) Object.assign(components, table.schemas);
  const schemas = new ValidationSchemas();
  const docs = new Map<Type, RouteDocTable>();
  for (const table of tables) docs.set(table.controller, table);
  const paths: Record<string, Record<string, Operation>> = {};
  for (const route of routes) {
    if (route.method === 'HEAD' || route.method === 'ALL' || route.excluded) continue;
    const table = docs.get(route.controller);
    const doc = table?.routes[route.handler];
    const operation = operationFor(route, doc, table?.tag, schemas, settings);
    (paths[route.path] ??= {})[route.method.toLowerCase()] = operation;
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Parley API',
      version: '1',
      description:
        'Generated from the running code: paths, parameters, request schemas (the validation rules themselves) ' +
        'and credentials come from the routes; answers from the route tables beside each controller. ' +
        'Errors share one envelope (contract §2). Guide per family: docs/api/.',
    },
    servers: [{ url: '/', description: 'this server' }],
    tags: TAGS.map((t) => ({ ...t })),
    paths: sortKeys(paths),
    components: {
      securitySchemes: SECURITY_SCHEMES,
      schemas: sortKeys({ ErrorEnvelope: ERROR_ENVELOPE, ...components, ...Object.fromEntries(schemas.components) }),
    },
  };
}

function operationFor(
  route: DeclaredRoute,
  doc: RouteDoc | undefined,
  tag: string | undefined,
  schemas: ValidationSchemas,
  settings: DocumentSettings,
): Operation {
  const operation: Operation = {
    operationId: operationId(route),
    tags: [tag ?? 'undocumented'],
    summary: doc?.summary ?? `${route.method} ${route.path} (not yet documented)`,
    responses: {},
  };
  if (doc?.description) operation.description = doc.description;
  if (!doc) operation['x-undocumented'] = true;

  const parameters: JsonSchema[] = route.pathParams.map((name) => ({
    name,
    in: 'path',
    required: true,
    schema: { type: 'string' },
  }));
  for (const name of route.queryParams) parameters.push({ name, in: 'query', schema: { type: 'string' } });
  if (route.queryType) {
    const query = schemas.schemaOf(route.queryType) as { properties?: Record<string, JsonSchema>; required?: string[] };
    for (const [name, schema] of Object.entries(query.properties ?? {}))
      parameters.push({ name, in: 'query', required: query.required?.includes(name) ?? false, schema });
  }
  for (const q of doc?.query ?? []) parameters.push(parameter(q, 'query'));
  for (const name of route.headerParams) parameters.push({ name, in: 'header', schema: { type: 'string' } });
  for (const h of doc?.headers ?? []) parameters.push(parameter(h, 'header'));
  if (parameters.length > 0) operation.parameters = parameters;

  if (route.bodyType) {
    const media: JsonSchema = { schema: schemas.refFor(route.bodyType) };
    if (doc?.example !== undefined) media.example = doc.example;
    operation.requestBody = { required: true, content: { 'application/json': media } };
  } else if (doc?.body) {
    const media: JsonSchema = { schema: doc.body.schema };
    if (doc.body.example !== undefined) media.example = doc.body.example;
    operation.requestBody = {
      required: doc.body.required ?? true,
      content: { [doc.body.contentType ?? 'application/json']: media },
    };
  }

  const security = doc?.security ?? derivedSecurity(route);
  operation.security = security;
  const permission = route.auth?.requirement.permission;
  if (permission) operation['x-permission'] = permission;

  for (const [status, answer] of Object.entries(doc?.responses ?? {})) {
    const response: JsonSchema = { description: answer.description };
    if (answer.schema) {
      const media: JsonSchema = { schema: answer.schema };
      if (answer.example !== undefined) media.example = answer.example;
      response.content = { [answer.contentType ?? route.contentType ?? 'application/json']: media };
    }
    if (answer.headers) response.headers = answer.headers;
    operation.responses[status] = response;
  }
  if (!doc) operation.responses[String(route.status)] = { description: 'not yet documented' };
  for (const status of errorStatuses(route, doc, security)) {
    operation.responses[String(status)] = {
      description: STATUS_TEXT[status] ?? 'Error',
      content: { 'application/json': { schema: ENVELOPE_REF } },
    };
  }
  operation.responses.default = {
    description: 'Any other error, in the same envelope',
    content: { 'application/json': { schema: ENVELOPE_REF } },
  };

  const family = familyOf(route.fastifyPath);
  operation['x-host-family'] = family;
  const server = familyServer(family, settings);
  if (server) operation.servers = [server];
  return operation;
}

function parameter(q: QueryParameter, where: 'query' | 'header'): JsonSchema {
  const p: JsonSchema = {
    name: q.name,
    in: where,
    required: q.required ?? false,
    schema: q.repeated ? { type: 'array', items: q.schema } : q.schema,
  };
  if (q.description) p.description = q.description;
  if (q.repeated) Object.assign(p, { style: 'form', explode: true });
  return p;
}

function derivedSecurity(route: DeclaredRoute): Array<Record<string, string[]>> {
  const security: Array<Record<string, string[]>> = [];
  if (route.auth) {
    security.push(route.auth.header === 'x-service-auth-token' ? { serviceToken: [] } : { apiKey: [] });
    if (route.auth.requirement.operator) security.push({ operatorToken: [] });
  }
  for (const guard of route.guards) {
    const scheme = GUARD_SCHEMES[guard.name];
    if (scheme) security.push({ [scheme]: [] });
  }
  return security;
}

function errorStatuses(route: DeclaredRoute, doc: RouteDoc | undefined, security: unknown[]): number[] {
  const statuses = new Set<number>(doc?.errors ?? []);
  if (route.bodyType || route.queryType || route.pathParams.length > 0 || doc?.body || doc?.query) statuses.add(400);
  if (security.length > 0) statuses.add(401);
  if (route.auth) [403, 429].forEach((s) => statuses.add(s));
  if (route.bodyType || doc?.body) statuses.add(413);
  return [...statuses].sort((a, b) => a - b);
}

function operationId(route: DeclaredRoute): string {
  const base = `${route.controller.name.replace(/Controller$/, '')}_${route.handler}`;
  if (route.variants === 1) return base;
  const version = /^\/(v\d+)\//.exec(route.fastifyPath)?.[1];
  return `${base}_${version ?? route.variant + 1}`;
}

/** With PUBLIC_DOMAIN, build and platform operations answer only on their family's host. */
function familyServer(family: string, settings: DocumentSettings): JsonSchema | undefined {
  if (!settings.publicDomain || family === 'any') return undefined;
  const host =
    family === 'build'
      ? `api.${settings.region}.${settings.publicDomain}`
      : `api.${PLATFORM_REGION[settings.region]}.platform.${settings.publicDomain}`;
  return { url: `https://${host}`, description: `the ${family} APIs of region ${settings.region}` };
}

function sortKeys<T>(record: Record<string, T>): Record<string, T> {
  return Object.fromEntries(Object.entries(record).sort(([a], [b]) => a.localeCompare(b)));
}
