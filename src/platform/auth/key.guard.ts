import { applyDecorators, Inject, Injectable, SetMetadata } from '@nestjs/common';
import { RouteConfig } from '@nestjs/platform-fastify';
import type { FastifyRequest, preParsingHookHandler } from 'fastify';
import { andThen, type Awaitable } from '../awaitable';
import { CONFIG, type Config } from '../config/config';
import { DomainError, forbidden } from '../errors/domain-error';
import { parseAccountId, parseAgentId } from '../ids/prefixed-ids';
import { OperatorToken } from '../operator/operator-token';
import { ACCOUNT_DIRECTORY, type AccountDirectory } from './account-directory';
import { AuthFailureThrottle } from './auth-failure-throttle';
import { AGENT_DIRECTORY, type AgentDirectory } from './agent-directory';
import { AUTH_REQUIREMENT, locate, type AuthRequirement } from './auth-requirement';
import { KeyAuthenticator } from './key-authenticator';
import { keyCanReachAgent, type KeyRecord } from './key-principal';
import { setPrincipal } from './principal';
import { RateLimiter } from './rate-limiter';

export const KEY_RATE_LIMITER = Symbol('KeyRateLimiter');

/** The credential header of each key style of interface.md ("Authentication"). */
export type KeyHeader = 'x-api-key' | 'x-service-auth-token';

interface RouteAuth {
  header: KeyHeader;
  requirement: AuthRequirement;
}

/** The authenticated key, for controllers: `keyOf(request)`. */
export function keyOf(request: FastifyRequest): KeyRecord | undefined {
  return (request as FastifyRequest & { apiKey?: KeyRecord | null }).apiKey ?? undefined;
}

/**
 * Authenticates the route's credential header, then authorizes: the key's account must own the
 * account in the path (403), the agent must be in the key's scope (403) and exist (404), and the
 * key must hold the route's permission (403). Synchronous from end to end while every lookup is
 * answered from memory or SQLite; a lookup that must wait (PostgreSQL) makes the rest wait for it.
 */
@Injectable()
export class KeyGate {
  constructor(
    private readonly keys: KeyAuthenticator,
    private readonly operator: OperatorToken,
    @Inject(AGENT_DIRECTORY) private readonly agents: AgentDirectory,
    @Inject(KEY_RATE_LIMITER) private readonly limiter: RateLimiter,
    @Inject(CONFIG) private readonly config: Config,
    private readonly failures: AuthFailureThrottle,
    @Inject(ACCOUNT_DIRECTORY) private readonly accounts: AccountDirectory,
  ) {}

  check(request: FastifyRequest, auth: RouteAuth): Awaitable<void> {
    return this.failures.attempt(request.ip, () => this.authenticate(request, auth));
  }

  private authenticate(request: FastifyRequest, { header, requirement }: RouteAuth): Awaitable<void> {
    if (requirement.operator && request.headers['x-operator-token'] !== undefined) {
      this.operator.verify(request.headers['x-operator-token']);
      setPrincipal(request, { kind: 'operator', id: 'operator' });
      return;
    }
    const raw = request.headers[header];
    const key = this.keys.authenticate(Array.isArray(raw) ? raw[0] : raw, header);
    // no closure on the path a remembered key takes (every request but a key's first)
    if (!(key instanceof Promise)) return this.admit(request, key, requirement);
    return key.then((known) => this.admit(request, known, requirement));
  }

  private admit(request: FastifyRequest, key: KeyRecord, requirement: AuthRequirement): Awaitable<void> {
    this.limiter.take(key.id);
    setPrincipal(request, { kind: 'key', id: key.id, accountId: key.accountId });
    (request as FastifyRequest & { apiKey?: KeyRecord | null }).apiKey = key;
    if (!this.config.publicDomain) return this.authorize(key, requirement, request);
    // With regional hosts, an account lives in one region: on another region's host it is not found.
    return andThen(this.accounts.regionOf(key.accountId), (region) => {
      if (region !== this.config.region)
        throw new DomainError('ACCOUNT_NOT_FOUND', `this account lives in another region; use that region's host`, 404);
      return this.authorize(key, requirement, request);
    });
  }

  /**
   * As a Fastify preParsing hook: it runs before the body is read (a refused credential never has
   * its body parsed) and before Nest's interceptors and pipes, like a guard, but with no promise in
   * between (Nest's guard pipeline alone cost ~10% of a trivial route's throughput) unless a lookup
   * has to wait for the database.
   */
  hook(): preParsingHookHandler {
    return (request, _reply, payload, done) => {
      const auth = (request.routeOptions.config as { parleyAuth?: RouteAuth } | undefined)?.parleyAuth;
      if (!auth) return done(null, payload);
      let checked: Awaitable<void>;
      try {
        checked = this.check(request, auth);
      } catch (error) {
        return done(error as Error);
      }
      if (checked instanceof Promise)
        checked.then(
          () => done(null, payload),
          (error: Error) => done(error),
        );
      else done(null, payload);
    };
  }

  private authorize(key: KeyRecord, requirement: AuthRequirement, request: FastifyRequest): Awaitable<void> {
    const accountRaw = locate(request, requirement.account);
    if (requirement.account !== undefined) {
      if (accountRaw === undefined) throw new DomainError('INVALID_ACCOUNT_ID', 'account id is required', 400);
      if (parseAccountId(accountRaw) !== key.accountId)
        throw forbidden('this key belongs to another account', 'ACCOUNT_FORBIDDEN');
    }
    const agentRaw = locate(request, requirement.agent);
    if (requirement.agent !== undefined) {
      if (agentRaw === undefined) throw new DomainError('INVALID_AGENT_ID', 'agent id is required', 400);
      const agentId = parseAgentId(agentRaw);
      const owner = this.agents.accountOf(agentId);
      if (owner instanceof Promise) return owner.then((known) => this.reach(key, requirement, agentId, known));
      return this.reach(key, requirement, agentId, owner);
    }
    this.permit(key, requirement);
  }

  private reach(key: KeyRecord, requirement: AuthRequirement, agentId: string, owner: string | null): void {
    if (owner !== null && owner !== key.accountId)
      throw forbidden('this key belongs to another account', 'ACCOUNT_FORBIDDEN');
    if (!keyCanReachAgent(key, agentId)) throw forbidden('this key is not scoped to this agent', 'AGENT_FORBIDDEN');
    if (owner === null) throw new DomainError('AGENT_NOT_FOUND', 'agent not found', 404);
    this.permit(key, requirement);
  }

  private permit(key: KeyRecord, requirement: AuthRequirement): void {
    if (
      requirement.permission &&
      !key.permissions.includes(requirement.permission) &&
      !requirement.permissionShapesResponse
    ) {
      throw forbidden(`this key lacks the ${requirement.permission} permission`, 'PERMISSION_DENIED');
    }
    if (requirement.allAgents && key.agents !== 'all')
      throw forbidden(
        'this resource is account-wide: it needs a key scoped to all agents ("agents": "all")',
        'AGENT_FORBIDDEN',
      );
  }
}

/** Nest's Fastify adapter reads a route's Fastify `config` from this metadata of the handler. */
const FASTIFY_ROUTE_CONFIG = '__fastify_route_config__';

/**
 * On a method: that route. On a controller: every route of it that does not declare its own
 * (Nest's Fastify adapter reads route config from handlers only, so the class form writes it onto
 * each handler; method decorators run first, so theirs win).
 */
function requireKey(header: KeyHeader, requirement: AuthRequirement) {
  const auth: RouteAuth = { header, requirement };
  return (target: object, property?: string | symbol, descriptor?: PropertyDescriptor) => {
    if (descriptor) {
      applyDecorators(SetMetadata(AUTH_REQUIREMENT, requirement), RouteConfig({ parleyAuth: auth }))(
        target,
        property!,
        descriptor,
      );
      return;
    }
    const prototype = (target as { prototype: Record<string, unknown> }).prototype;
    for (const name of Object.getOwnPropertyNames(prototype)) {
      const handler = prototype[name];
      if (name === 'constructor' || typeof handler !== 'function') continue;
      const config = Reflect.getMetadata(FASTIFY_ROUTE_CONFIG, handler) as { parleyAuth?: RouteAuth } | undefined;
      if (config?.parleyAuth) continue;
      Reflect.defineMetadata(FASTIFY_ROUTE_CONFIG, { ...config, parleyAuth: auth }, handler);
      Reflect.defineMetadata(AUTH_REQUIREMENT, requirement, handler);
    }
  };
}

/** `x-api-key` (any case): Agents, debug chat, Alerts, Conversations, Handoff, External events. */
export const RequireApiKey = (requirement: AuthRequirement) => requireKey('x-api-key', requirement);

/** `X-Service-Auth-Token`: outbound calling and SMS. */
export const RequireServiceToken = (requirement: AuthRequirement) => requireKey('x-service-auth-token', requirement);
