import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { AuthFailureThrottle } from '../auth/auth-failure-throttle';
import { setPrincipal } from '../auth/principal';
import { unauthorized } from '../errors/domain-error';
import { OperatorToken } from './operator-token';

@Injectable()
export class OperatorGuard implements CanActivate {
  constructor(
    private readonly token: OperatorToken,
    private readonly failures: AuthFailureThrottle,
  ) {}

  canActivate(context: ExecutionContext): boolean {
    const request = context.switchToHttp().getRequest<FastifyRequest>();
    const address = request.ip;
    this.failures.admit(address);
    const given = request.headers['x-operator-token'];
    if (!this.token.matches(Array.isArray(given) ? given[0] : given)) {
      const refusal = unauthorized(
        'missing or invalid operator token (header x-operator-token)',
        'OPERATOR_TOKEN_INVALID',
      );
      // no token at all is not a guess
      throw given === undefined ? refusal : this.failures.failed(address, refusal);
    }
    setPrincipal(request, { kind: 'operator', id: 'operator' });
    return true;
  }
}
