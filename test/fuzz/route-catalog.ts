import { METHOD_METADATA, PATH_METADATA, ROUTE_ARGS_METADATA } from '@nestjs/common/constants';
import { RequestMethod, type Type } from '@nestjs/common';
import { RouteParamtypes } from '@nestjs/common/enums/route-paramtypes.enum';
import { ModulesContainer } from '@nestjs/core';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';

/**
 * Every HTTP route the running app registered, read from the app itself: Fastify's router for the
 * list (so a route added anywhere is fuzzed without editing this suite) and Nest's metadata for the
 * DTO classes of its body and query (so the fuzz knows the real field names).
 */
export interface CatalogRoute {
  method: string;
  /** the Fastify template, e.g. `/v1/agents/:agentId/branches` */
  url: string;
  /** names of the `:params` in `url`, in order */
  params: string[];
  /** the @Body() DTO class, when the handler declares one */
  bodyType?: Type;
  /** the @Query() DTO class, when the handler declares one */
  queryType?: Type;
}

export const routeKey = (method: string, url: string) => `${method} ${url}`;

/**
 * Parses `printRoutes({commonPrefix: false})`: each line is a tree branch (`├── ` or `└── `) four
 * columns deeper than its parent, a path segment appended to the parent's, and `(METHODS)`. HEAD
 * is left out: Fastify adds it to every GET itself.
 */
export function parseRouteTree(tree: string): Array<{ method: string; url: string }> {
  const routes: Array<{ method: string; url: string }> = [];
  const prefixes: string[] = [];
  for (const line of tree.split('\n')) {
    const match = /^(.*?)(?:├── |└── )(.*)$/.exec(line);
    if (!match) continue;
    const depth = Math.floor(match[1].length / 4);
    const body = match[2];
    const methods = /^(.*?) \(([A-Z, ]+)\)$/.exec(body);
    const segment = methods ? methods[1] : body.trimEnd();
    const parent = depth > 0 ? prefixes[depth - 1] : '';
    // a wildcard hangs under its parent without the slash it follows (`/studio` then `*` is `/studio/*`)
    const url = segment === '*' && !parent.endsWith('/') ? `${parent}/*` : parent + segment;
    prefixes[depth] = url;
    prefixes.length = depth + 1;
    if (!methods) continue;
    for (const method of methods[2].split(',').map((m) => m.trim())) {
      if (method !== 'HEAD') routes.push({ method, url });
    }
  }
  return routes;
}

/** `METHOD /path` -> the DTO classes of the handler's @Body() and @Query(), from Nest's metadata. */
function nestDtoBindings(app: NestFastifyApplication): Map<string, { bodyType?: Type; queryType?: Type }> {
  const bindings = new Map<string, { bodyType?: Type; queryType?: Type }>();
  for (const module of app.get(ModulesContainer).values()) {
    for (const wrapper of module.controllers.values()) {
      const controller = wrapper.metatype as Type | null;
      if (!controller) continue;
      const prefixes = asArray(Reflect.getMetadata(PATH_METADATA, controller));
      const prototype = controller.prototype as Record<string, unknown>;
      for (const name of Object.getOwnPropertyNames(prototype)) {
        const handler = prototype[name];
        if (name === 'constructor' || typeof handler !== 'function') continue;
        const paths = Reflect.getMetadata(PATH_METADATA, handler);
        if (paths === undefined) continue;
        const method = RequestMethod[Reflect.getMetadata(METHOD_METADATA, handler) as RequestMethod];
        const types: Type[] = Reflect.getMetadata('design:paramtypes', prototype, name) ?? [];
        const args: Record<string, { index: number; data?: unknown }> =
          Reflect.getMetadata(ROUTE_ARGS_METADATA, controller, name) ?? {};
        const dto = (kind: RouteParamtypes) => {
          const arg = Object.entries(args).find(([k, v]) => k.split(':')[0] === String(kind) && v.data === undefined);
          const type = arg ? types[arg[1].index] : undefined;
          return type && type !== Object && type.name !== 'Object' ? type : undefined;
        };
        for (const prefix of prefixes) {
          for (const path of asArray(paths)) {
            const url = `/${[prefix, path].filter((p) => p !== '' && p !== '/').join('/')}`
              .replace(/\/+/g, '/')
              .replace(/(.)\/$/, '$1');
            bindings.set(routeKey(method, url), {
              bodyType: dto(RouteParamtypes.BODY),
              queryType: dto(RouteParamtypes.QUERY),
            });
          }
        }
      }
    }
  }
  return bindings;
}

const asArray = (value: unknown): string[] =>
  value === undefined ? [''] : Array.isArray(value) ? value.map(String) : [String(value)];

/** The app's routes, each with its DTOs when Nest declares them. */
export function routeCatalog(app: NestFastifyApplication): CatalogRoute[] {
  const fastify = app.getHttpAdapter().getInstance();
  const bindings = nestDtoBindings(app);
  return parseRouteTree(fastify.printRoutes({ commonPrefix: false })).map(({ method, url }) => ({
    method,
    url,
    params: [...url.matchAll(/:([A-Za-z0-9_]+)/g)].map((m) => m[1]),
    ...bindings.get(routeKey(method, url)),
  }));
}
