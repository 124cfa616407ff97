import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { setPrincipal } from '../auth/principal';
import { unauthorized } from '../errors/domain-error';
import { OperatorToken } from './operator-token';

@Injectable()
export class OperatorGuard implements CanActivate {
  constructor(private readonly token: OperatorToken) {}

  canActivate(context: ExecutionContext): boolean {
    const request = context.switchToHttp().getRequest<FastifyRequest>();
    const given = request.headers['x-operator-token'];
    if (!this.token.matches(Array.isArray(given) ? given[0] : given)) {
      throw unauthorized('missing or invalid operator token (header x-operator-token)', 'OPERATOR_TOKEN_INVALID');
    }
    setPrincipal(request, { kind: 'operator', id: 'operator' });
    return true;
  }
}
