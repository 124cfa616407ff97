import { CallHandler, ExecutionContext, Injectable, NestInterceptor } from '@nestjs/common';
import { HTTP_CODE_METADATA } from '@nestjs/common/constants';
import { Reflector } from '@nestjs/core';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { from, lastValueFrom, type Observable } from 'rxjs';
import { principalOf, type Principal } from '../auth/principal';
import { Clock } from '../clock/clock';
import { DomainError } from '../errors/domain-error';
import { IdempotencyStore } from './idempotency.store';

const KEY = /^[\x21-\x7e]{1,255}$/;
const REPLAYED = 'idempotent-replayed';

/**
 * Idempotency-Key on POSTs (contract §2): the first response is stored; a repeat with the same
 * body within 24 h gets it again and changes nothing; the same key with another body is 409.
 *
 * Interceptors run after guards and the key gate's preParsing hook, so a principal here means the
 * route's credential has checked out. Records are keyed by that credential's id (with the route
 * and the key): another or no credential can never be answered with someone's first response.
 * A route that authenticates no one (the SMS carrier's webhook, health) ignores the header.
 */
@Injectable()
export class IdempotencyInterceptor implements NestInterceptor {
  constructor(
    private readonly store: IdempotencyStore,
    private readonly clock: Clock,
    private readonly reflector: Reflector,
  ) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    if (context.getType() !== 'http') return next.handle();
    const request = context.switchToHttp().getRequest<FastifyRequest>();
    const header = request.headers['idempotency-key'];
    const principal = principalOf(request);
    if (request.method !== 'POST' || header === undefined || !principal) return next.handle();
    return from(this.run(context, request, principal, Array.isArray(header) ? header[0] : header, next));
  }

  private async run(
    context: ExecutionContext,
    request: FastifyRequest,
    principal: Principal,
    key: string,
    next: CallHandler,
  ): Promise<unknown> {
    if (!KEY.test(key))
      throw new DomainError(
        'INVALID_IDEMPOTENCY_KEY',
        'Idempotency-Key must be 1 to 255 visible ASCII characters',
        400,
      );
    const reply = context.switchToHttp().getResponse<FastifyReply>();
    const id = IdempotencyStore.recordId(`${principal.kind}:${principal.id}`, request.method, request.url, key);
    const reservation = await this.store.reserve(id, this.store.requestHash(request.body), this.clock.now());
    switch (reservation.kind) {
      case 'mismatch':
        throw new DomainError(
          'IDEMPOTENCY_KEY_REUSED',
          'this Idempotency-Key was used with a different request body',
          409,
        );
      case 'in_progress':
        throw new DomainError(
          'IDEMPOTENCY_KEY_IN_PROGRESS',
          'a request with this Idempotency-Key is still being processed; retry shortly',
          409,
          null,
          [],
          { 'retry-after': '1' },
        );
      case 'replay':
        reply.status(reservation.status).headers({ ...reservation.headers, [REPLAYED]: 'true' });
        return reservation.body;
    }
    try {
      const body = await lastValueFrom(next.handle(), { defaultValue: undefined });
      const status = this.reflector.get<number | undefined>(HTTP_CODE_METADATA, context.getHandler()) ?? 201;
      const location = reply.getHeader('location');
      await this.store.complete(id, status, body, typeof location === 'string' ? { location } : {});
      return body;
    } catch (error) {
      await this.store.release(id);
      throw error;
    }
  }
}
