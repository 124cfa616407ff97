import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { AuthFailureThrottle } from '../auth/auth-failure-throttle';
import { setPrincipal } from '../auth/principal';
import { OperatorToken } from './operator-token';

@Injectable()
export class OperatorGuard implements CanActivate {
  constructor(
    private readonly token: OperatorToken,
    private readonly failures: AuthFailureThrottle,
  ) {}

  canActivate(context: ExecutionContext): boolean {
    const request = context.switchToHttp().getRequest<FastifyRequest>();
    this.failures.attempt(request.ip, () => this.token.verify(request.headers['x-operator-token']));
    setPrincipal(request, { kind: 'operator', id: 'operator' });
    return true;
  }
}
