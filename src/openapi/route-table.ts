import { RequestMethod, type Type } from '@nestjs/common';
import {
  GUARDS_METADATA,
  HEADERS_METADATA,
  HTTP_CODE_METADATA,
  METHOD_METADATA,
  PATH_METADATA,
  ROUTE_ARGS_METADATA,
} from '@nestjs/common/constants';
import { RouteParamtypes } from '@nestjs/common/enums/route-paramtypes.enum';
import type { ModulesContainer } from '@nestjs/core';
import { DECORATORS } from '@nestjs/swagger';
import type { AuthRequirement } from '../platform/auth/auth-requirement';

/**
 * Every HTTP route of the running app as Nest declares it: the controller and handler, method and
 * path, the DTO classes of its body and query, the parameters it reads, its status code and the
 * credential its guard checks. Read from the same metadata Nest routes and validates with, so a
 * route added anywhere is here without anyone listing it.
 */
export interface DeclaredRoute {
  controller: Type;
  handler: string;
  method: string;
  /** OpenAPI form: `/v1/agents/{agentId}` */
  path: string;
  /** Fastify form: `/v1/agents/:agentId` */
  fastifyPath: string;
  /** more than one path served by the same handler: its index among them */
  variant: number;
  variants: number;
  pathParams: string[];
  headerParams: string[];
  /** single query values read with @Query('name') */
  queryParams: string[];
  bodyType?: Type;
  queryType?: Type;
  /** @HttpCode, else Nest's default (201 for POST, 200 otherwise) */
  status: number;
  /** @Header('content-type', ...) */
  contentType?: string;
  auth?: { header: string; requirement: AuthRequirement };
  guards: Type[];
  /** `@ApiExcludeController()` or `@ApiExcludeEndpoint()`: served, but not an API route of the document */
  excluded?: boolean;
}

/** Nest's Fastify adapter reads a route's Fastify `config` from this metadata (key.guard.ts writes it). */
const FASTIFY_ROUTE_CONFIG = '__fastify_route_config__';

export function declaredRoutes(modules: ModulesContainer): DeclaredRoute[] {
  const routes: DeclaredRoute[] = [];
  const seen = new Set<Type>();
  for (const module of modules.values()) {
    for (const wrapper of module.controllers.values()) {
      const controller = wrapper.metatype as Type | null;
      if (!controller || seen.has(controller)) continue;
      seen.add(controller);
      routes.push(...routesOf(controller));
    }
  }
  return routes;
}

function routesOf(controller: Type): DeclaredRoute[] {
  const routes: DeclaredRoute[] = [];
  const prefixes = asArray(Reflect.getMetadata(PATH_METADATA, controller));
  const prototype = controller.prototype as Record<string, unknown>;
  const controllerExcluded = isExcluded(Reflect.getMetadata(DECORATORS.API_EXCLUDE_CONTROLLER, controller));
  for (const name of Object.getOwnPropertyNames(prototype)) {
    const handler = prototype[name];
    if (name === 'constructor' || typeof handler !== 'function') continue;
    const handlerPaths = Reflect.getMetadata(PATH_METADATA, handler);
    if (handlerPaths === undefined) continue;
    const method = RequestMethod[Reflect.getMetadata(METHOD_METADATA, handler) as RequestMethod];
    const types: Type[] = Reflect.getMetadata('design:paramtypes', prototype, name) ?? [];
    const args: Record<string, { index: number; data?: unknown }> =
      Reflect.getMetadata(ROUTE_ARGS_METADATA, controller, name) ?? {};
    const argsOf = (kind: RouteParamtypes) =>
      Object.entries(args)
        .filter(([key]) => key.split(':')[0] === String(kind))
        .map(([, value]) => value);
    const dto = (kind: RouteParamtypes) => {
      const whole = argsOf(kind).find((a) => a.data === undefined);
      const type = whole ? types[whole.index] : undefined;
      return type && type !== Object && type.name !== 'Object' ? type : undefined;
    };
    const named = (kind: RouteParamtypes) =>
      argsOf(kind)
        .map((a) => a.data)
        .filter((d): d is string => typeof d === 'string');
    const headers: Array<{ name: string; value: string }> = Reflect.getMetadata(HEADERS_METADATA, handler) ?? [];
    const config = Reflect.getMetadata(FASTIFY_ROUTE_CONFIG, handler) as
      { parleyAuth?: DeclaredRoute['auth'] } | undefined;
    const guards: Type[] = [
      ...(Reflect.getMetadata(GUARDS_METADATA, controller) ?? []),
      ...(Reflect.getMetadata(GUARDS_METADATA, handler) ?? []),
    ];
    const paths = prefixes.flatMap((prefix) => asArray(handlerPaths).map((path) => joinPath(prefix, path)));
    paths.forEach((fastifyPath, variant) => {
      routes.push({
        controller,
        handler: name,
        method,
        path: fastifyPath.replace(/:([A-Za-z0-9_]+)/g, '{$1}'),
        fastifyPath,
        variant,
        variants: paths.length,
        pathParams: [...fastifyPath.matchAll(/:([A-Za-z0-9_]+)/g)].map((m) => m[1]),
        headerParams: named(RouteParamtypes.HEADERS),
        queryParams: named(RouteParamtypes.QUERY),
        bodyType: dto(RouteParamtypes.BODY),
        queryType: dto(RouteParamtypes.QUERY),
        status: Reflect.getMetadata(HTTP_CODE_METADATA, handler) ?? (method === 'POST' ? 201 : 200),
        contentType: headers.find((h) => h.name.toLowerCase() === 'content-type')?.value,
        auth: config?.parleyAuth,
        guards,
        excluded:
          controllerExcluded || isExcluded(Reflect.getMetadata(DECORATORS.API_EXCLUDE_ENDPOINT, handler)) || undefined,
      });
    });
  }
  return routes;
}

/** @nestjs/swagger stores `[true]` for the controller, `{disable: true}` for an endpoint. */
const isExcluded = (value: unknown): boolean =>
  Array.isArray(value) ? value[0] === true : (value as { disable?: boolean } | undefined)?.disable === true;

const asArray = (value: unknown): string[] =>
  value === undefined ? [''] : Array.isArray(value) ? value.map(String) : [String(value)];

/** Nest's joining of controller and handler paths, e.g. `v1/agents/:agentId` + `` -> `/v1/agents/:agentId`. */
const joinPath = (prefix: string, path: string) =>
  `/${[prefix, path].filter((p) => p !== '' && p !== '/').join('/')}`.replace(/\/+/g, '/').replace(/(.)\/$/, '$1');
