import type { Type } from '@nestjs/common';
import type { JsonSchema } from './json-schema';
import type { Tag } from './openapi-tags';

/**
 * What a route's code cannot say about itself: its answers (a schema per status), a summary, and
 * the query parameters of routes that parse their query by hand. Paths, path parameters, headers,
 * request bodies and query DTOs, the credential and the tag come from the code (route-table.ts).
 * Each context keeps a table next to its controllers (`<context>.openapi.ts`), listed in
 * `src/app.route-docs.ts`.
 */
export interface RouteDoc {
  summary: string;
  description?: string;
  /** the answers that are not errors: status -> answer */
  responses: Record<number, Answer>;
  /** error statuses this route answers, beyond the ones every route may (400, 401, 403, 413, 429, 5xx) */
  errors?: number[];
  /** query parameters a route reads without a DTO */
  query?: QueryParameter[];
  /** the body of a route that parses it itself (no DTO) */
  body?: { schema: JsonSchema; contentType?: string; required?: boolean; example?: unknown };
  /** header parameters the code does not declare with @Headers() */
  headers?: QueryParameter[];
  /** overrides the credential derived from the route's guard, e.g. `[]` for a public route */
  security?: Array<Record<string, string[]>>;
  /** an example body for the request (OpenAPI `example`) */
  example?: unknown;
}

interface Answer {
  description: string;
  /** absent: no body (204) */
  schema?: JsonSchema;
  /** default application/json */
  contentType?: string;
  example?: unknown;
  headers?: Record<string, { description: string; schema: JsonSchema }>;
}

export interface QueryParameter {
  name: string;
  description?: string;
  required?: boolean;
  schema: JsonSchema;
  /** a repeatable parameter (`?channel=a&channel=b`) */
  repeated?: boolean;
}

/** Handler names of a controller: the methods its routes call. */
type Handlers<C> = { [K in keyof C]: C[K] extends (...args: never[]) => unknown ? K : never }[keyof C];

export interface RouteDocTable {
  controller: Type;
  /** the family tag of every route of this controller */
  tag: Tag;
  routes: Record<string, RouteDoc>;
  /** named schemas the answers refer to (`ref('Agent')`), added to `components.schemas` */
  schemas?: Record<string, JsonSchema>;
}

/**
 * Declares the documents of a controller's routes, one per handler method. Typed by the
 * controller, so a renamed handler is a type error here.
 */
export function routeDocs<C>(
  controller: Type<C>,
  tag: Tag,
  routes: { [K in Handlers<C>]?: RouteDoc },
  schemas?: Record<string, JsonSchema>,
): RouteDocTable {
  return { controller, tag, routes: routes as Record<string, RouteDoc>, schemas };
}

/** A reference to a named schema of `components.schemas`. */
export const ref = (name: string): JsonSchema => ({ $ref: `#/components/schemas/${name}` });
