import { applyDecorators, CanActivate, ExecutionContext, Inject, Injectable, SetMetadata, UseGuards } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { FastifyRequest } from 'fastify';
import { DomainError, forbidden } from '../errors/domain-error';
import { parseAccountId, parseAgentId } from '../ids/prefixed-ids';
import { OperatorToken } from '../operator/operator-token';
import { AGENT_DIRECTORY, type AgentDirectory } from './agent-directory';
import { AUTH_REQUIREMENT, locate, type AuthRequirement } from './auth-requirement';
import { KeyAuthenticator } from './key-authenticator';
import { keyCanReachAgent, type KeyRecord } from './key-principal';
import { setPrincipal } from './principal';
import { RateLimiter } from './rate-limiter';

export const KEY_RATE_LIMITER = Symbol('KeyRateLimiter');

/** The authenticated key, for controllers: `keyOf(request)`. */
export function keyOf(request: FastifyRequest): KeyRecord | undefined {
  return (request as FastifyRequest & { apiKey?: KeyRecord }).apiKey;
}

/**
 * Authenticates the credential header of the route's style, then authorizes: the key's account
 * must own the account in the path (403), the agent must be in the key's scope (403) and exist in
 * that account (404), and the key must hold the route's permission (403).
 */
abstract class KeyGuard implements CanActivate {
  protected abstract readonly header: string;

  constructor(
    private readonly reflector: Reflector,
    private readonly keys: KeyAuthenticator,
    private readonly operator: OperatorToken,
    @Inject(AGENT_DIRECTORY) private readonly agents: AgentDirectory,
    @Inject(KEY_RATE_LIMITER) private readonly limiter: RateLimiter,
  ) {}

  canActivate(context: ExecutionContext): boolean {
    const requirement = this.reflector.getAllAndOverride<AuthRequirement | undefined>(AUTH_REQUIREMENT, [context.getHandler(), context.getClass()]);
    if (!requirement) throw new Error('a key-guarded route must declare its AuthRequirement');
    const request = context.switchToHttp().getRequest<FastifyRequest>();
    if (requirement.operator && request.headers['x-operator-token'] !== undefined) {
      const token = request.headers['x-operator-token'];
      if (!this.operator.matches(Array.isArray(token) ? token[0] : token)) {
        throw new DomainError('OPERATOR_TOKEN_INVALID', 'invalid operator token', 401);
      }
      setPrincipal(request, { kind: 'operator', id: 'operator' });
      return true;
    }
    const raw = request.headers[this.header];
    const key = this.keys.authenticate(Array.isArray(raw) ? raw[0] : raw, this.header);
    this.limiter.take(key.id);
    setPrincipal(request, { kind: 'key', id: key.id, accountId: key.accountId });
    (request as FastifyRequest & { apiKey?: KeyRecord }).apiKey = key;
    this.authorize(key, requirement, request);
    return true;
  }

  private authorize(key: KeyRecord, requirement: AuthRequirement, request: FastifyRequest): void {
    const accountRaw = locate(request, requirement.account);
    if (requirement.account !== undefined) {
      if (accountRaw === undefined) throw new DomainError('INVALID_ACCOUNT_ID', 'account id is required', 400);
      if (parseAccountId(accountRaw) !== key.accountId) throw forbidden('this key belongs to another account', 'ACCOUNT_FORBIDDEN');
    }
    const agentRaw = locate(request, requirement.agent);
    if (requirement.agent !== undefined) {
      if (agentRaw === undefined) throw new DomainError('INVALID_AGENT_ID', 'agent id is required', 400);
      const agentId = parseAgentId(agentRaw);
      const owner = this.agents.accountOf(agentId);
      if (owner !== null && owner !== key.accountId) throw forbidden('this key belongs to another account', 'ACCOUNT_FORBIDDEN');
      if (!keyCanReachAgent(key, agentId)) throw forbidden('this key is not scoped to this agent', 'AGENT_FORBIDDEN');
      if (owner === null) throw new DomainError('AGENT_NOT_FOUND', 'agent not found', 404);
    }
    if (requirement.permission && !key.permissions.includes(requirement.permission) && !requirement.permissionShapesResponse) {
      throw forbidden(`this key lacks the ${requirement.permission} permission`, 'PERMISSION_DENIED');
    }
  }
}

/** `x-api-key` (any case): Agents, debug chat, Alerts, Conversations, Handoff, External events. */
@Injectable()
export class ApiKeyGuard extends KeyGuard {
  protected readonly header = 'x-api-key';
}

/** `X-Service-Auth-Token`: outbound calling and SMS. */
@Injectable()
export class ServiceTokenGuard extends KeyGuard {
  protected readonly header = 'x-service-auth-token';
}

export const RequireApiKey = (requirement: AuthRequirement) =>
  applyDecorators(SetMetadata(AUTH_REQUIREMENT, requirement), UseGuards(ApiKeyGuard));

export const RequireServiceToken = (requirement: AuthRequirement) =>
  applyDecorators(SetMetadata(AUTH_REQUIREMENT, requirement), UseGuards(ServiceTokenGuard));
