import { ArgumentsHost, Catch, ExceptionFilter, Inject } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Logger } from 'pino';
import { LOGGER } from '../logging/logger';
import { toErrorResponse } from './to-error-response';

/** The one place an error becomes a response. Controllers never build error bodies. */
@Catch()
export class EnvelopeExceptionFilter implements ExceptionFilter {
  constructor(
    @Inject(LOGGER) private readonly logger: Logger,
    /** told of every error answer (alerting counts a project's 5xx answers) */
    private readonly onAnswered?: (request: FastifyRequest, status: number) => void,
  ) {}

  catch(error: unknown, host: ArgumentsHost): void {
    if (host.getType() !== 'http') throw error;
    const request = host.switchToHttp().getRequest<FastifyRequest>();
    const reply = host.switchToHttp().getResponse<FastifyReply>();
    const status = sendError(reply, request, error, this.logger);
    this.onAnswered?.(request, status);
  }
}

/** Answers the error in the envelope; returns the status it answered (or would have). */
function sendError(reply: FastifyReply, request: FastifyRequest, error: unknown, logger: Logger): number {
  const response = toErrorResponse(error, String(request.id), request.url.split('?')[0]);
  if (response.internal) logger.error({ err: error, reqId: request.id }, 'request failed');
  if (!reply.sent) reply.headers(response.headers).status(response.status).send(response.body);
  return response.status;
}
