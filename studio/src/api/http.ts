import { familyOf } from '../../../src/platform/http/hosts';
import type { paths } from './schema';
import type { ErrorEnvelope } from './types';

/** The methods of the document's path items, as openapi-typescript names them. */
export type Method = 'get' | 'put' | 'post' | 'patch' | 'delete';

/** The path templates of /openapi.json that have an operation for `M`. */
export type PathOf<M extends Method> = {
  [P in keyof paths]: undefined extends paths[P][M] ? never : P;
}[keyof paths];

type Operation<M extends Method, P extends PathOf<M>> = NonNullable<paths[P][M]>;
type Json<R> = R extends { content: { 'application/json': infer J } } ? J : void;
type Success<R> = { [S in keyof R]: S extends 200 | 201 | 202 | 204 ? Json<R[S]> : never }[keyof R];

/** The JSON of the route's 2xx answer (void for 204), as the document declares it. */
export type AnswerOf<M extends Method, P extends PathOf<M>> =
  Operation<M, P> extends { responses: infer R } ? Success<R> : never;

/** The JSON body the route takes, as the document declares it (never when it takes none). */
export type BodyOf<M extends Method, P extends PathOf<M>> = JsonBody<RequestBodyOf<Operation<M, P>>>;
type RequestBodyOf<O> = O extends { requestBody?: infer R } ? NonNullable<R> : never;
type JsonBody<R> = R extends { content: { 'application/json': infer B } } ? B : never;

/** The options of a typed call: the body is checked against the document; path and query are filled as given. */
export type CallOptions<M extends Method, P extends PathOf<M>> = Omit<RequestOptions, 'body'> &
  ([BodyOf<M, P>] extends [never] ? { body?: undefined } : { body: BodyOf<M, P> });

/** Who is signed in: an API key (`x-api-key`) or the operator token (`x-operator-token`). */
export interface Credentials {
  mode: 'key' | 'operator';
  secret: string;
}

/** Where each API family answers (contract §1): null means this page's own origin. */
export interface Hosts {
  build: string | null;
  platform: string | null;
}

/** A refusal in the error envelope of contract §2, kept whole so a screen can show its data. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly envelope: ErrorEnvelope | null,
  ) {
    super(envelope?.error_message ?? `HTTP ${status}`);
  }
  get code(): string {
    return this.envelope?.error_code ?? `HTTP_${this.status}`;
  }
}

export type Query = Record<string, string | number | boolean | string[] | undefined | null>;

export interface RequestOptions {
  /** Values for the `{name}` placeholders of the path template. */
  path?: Record<string, string>;
  query?: Query;
  body?: unknown;
}

/**
 * Fills an OpenAPI-style path template (`/v1/agents/{agentId}`): the same templates the generated
 * document will carry, so a typed client can replace this one route by route.
 */
function fillPath(template: string, values: Record<string, string> = {}): string {
  return template.replace(/\{(\w+)\}/g, (_, name: string) => {
    const value = values[name];
    if (value === undefined) throw new Error(`missing path parameter ${name} for ${template}`);
    return encodeURIComponent(value);
  });
}

function queryString(query: Query = {}): string {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) {
    if (value === undefined || value === null || value === '') continue;
    if (Array.isArray(value)) value.forEach((v) => params.append(name, v));
    else params.set(name, String(value));
  }
  const text = params.toString();
  return text ? `?${text}` : '';
}

export class Http {
  constructor(
    private readonly credentials: Credentials,
    private readonly hosts: Hosts = { build: null, platform: null },
  ) {}

  /** The base URL of a path's family: with PUBLIC_DOMAIN set, build and platform APIs live on their own hosts. */
  baseFor(path: string): string {
    const family = familyOf(path);
    if (family === 'build') return this.hosts.build ?? '';
    if (family === 'platform') return this.hosts.platform ?? '';
    return '';
  }

  /** A call typed by the OpenAPI document: `path` must be one of its templates, the body and answer its schemas. */
  call<M extends Method, P extends PathOf<M>>(
    method: M,
    template: P,
    ...[options]: [BodyOf<M, P>] extends [never] ? [CallOptions<M, P>?] : [CallOptions<M, P>]
  ): Promise<AnswerOf<M, P>> {
    return this.request<AnswerOf<M, P>>(method.toUpperCase(), template, options);
  }

  async request<T>(method: string, template: string, options: RequestOptions = {}): Promise<T> {
    const path = fillPath(template, options.path);
    const headers: Record<string, string> = { accept: 'application/json' };
    headers[this.credentials.mode === 'operator' ? 'x-operator-token' : 'x-api-key'] = this.credentials.secret;
    if (options.body !== undefined) headers['content-type'] = 'application/json';
    const response = await fetch(`${this.baseFor(path)}${path}${queryString(options.query)}`, {
      method,
      headers,
      body: options.body === undefined ? undefined : JSON.stringify(options.body),
    });
    if (response.status === 204) return undefined as T;
    const text = await response.text();
    let parsed: unknown;
    try {
      parsed = text ? JSON.parse(text) : null;
    } catch {
      parsed = null; // not JSON (a proxy's page): reported by status alone
    }
    if (!response.ok) throw new ApiError(response.status, isEnvelope(parsed) ? parsed : null);
    return parsed as T;
  }
}

function isEnvelope(value: unknown): value is ErrorEnvelope {
  return typeof value === 'object' && value !== null && 'error_code' in value;
}
