import type { Type } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import type { Logger } from 'pino';
import { AppModule } from './app.module';
import type { Clock } from './platform/clock/clock';
import { BODY_LIMIT_BYTES, type Config } from './platform/config/config';
import type { VoiceSeam } from './sip/voice-seam.module';
import { KeyGate } from './platform/auth/key.guard';
import { makeDataDirPrivate } from './platform/database/private-data-dir';
import { EnvelopeExceptionFilter } from './platform/errors/exception.filter';
import { errorEnvelope } from './platform/errors/error-envelope';
import { CORRELATION_HEADER, correlationIdFor } from './platform/http/correlation';
import { registerBodyParsers } from './platform/http/body-parsers';
import { answerClientError, answerFrameworkError, refuseConnection } from './platform/http/edge-errors';
import { answerRawProtocol, edgeServerOptions, requireHost } from './platform/http/edge-server';
import { leaveUnreadBodies } from './platform/http/unread-bodies';
import { checkHost } from './platform/http/hosts';
import { corsVerdict } from './platform/http/studio-cors';
import { IdempotencyInterceptor } from './platform/idempotency/idempotency.interceptor';
import { PinoNestLogger, redactUrl } from './platform/logging/logger';
import { ApiErrorRecorder } from './alerts/api-error-recorder';
import { Metrics } from './platform/metrics/metrics';
import { createValidationPipe } from './platform/validation/validation';
import { AuthFailureThrottle } from './platform/auth/auth-failure-throttle';
import { ParleyWsAdapter } from './platform/ws/parley-ws-adapter';
import { ByteBudget } from './platform/limits/byte-budget';
import { ConnectionCap } from './platform/limits/connection-cap';
import { addressTestOf } from './platform/net/cidr';
import { forwardedClient } from './platform/net/forwarded-for';

/** Builds the whole application, not yet listening. main.ts and the e2e tests both start here. */
export async function createApp(
  config: Config,
  logger: Logger,
  clock?: Clock,
  extraControllers: Type[] = [],
  /** the call audio and voice side SIP hands calls to (src/sip/voice-seam.module.ts); none: signalling only */
  voice: VoiceSeam = {},
): Promise<NestFastifyApplication> {
  const notPrivate = makeDataDirPrivate(config.dataDir);
  if (notPrivate.length > 0)
    logger.warn(
      { files: notPrivate.slice(0, 20) },
      'could not make these data files owner-only (owned by another user): fix their owner or mode',
    );
  const trustedProxy = addressTestOf(config.edge.trustedProxies);
  const adapter = new FastifyAdapter({
    ...edgeServerOptions(config.edge, trustedProxy),
    bodyLimit: BODY_LIMIT_BYTES,
    genReqId: correlationIdFor,
    return503OnClosing: true,
    frameworkErrors: answerFrameworkError,
    clientErrorHandler: answerClientError,
  });
  const bytes = new ByteBudget(config.edge.bodyBytesPerS, config.edge.bodyBytesBurst);
  registerBodyParsers(adapter, BODY_LIMIT_BYTES, bytes);
  const fastify = adapter.getInstance();
  const connections = new ConnectionCap(config.edge.maxConnectionsPerAddress, trustedProxy, config.edge.maxConnections);
  connections.guard(fastify.server, refuseConnection);
  answerRawProtocol(fastify.server);
  leaveUnreadBodies(fastify);
  // Properties guards set on the request are declared up front, so every request keeps one shape
  // (adding them per request would make V8 deoptimise Fastify's and Nest's hot paths).
  fastify.decorateRequest('principal', null);
  fastify.decorateRequest('apiKey', null);
  // Callback-style hooks: an async hook costs every request a promise and a microtask turn.
  fastify.addHook('onRequest', (request, reply, done) => {
    reply.header(CORRELATION_HEADER, request.id);
    done(requireHost(request));
  });
  if (config.studioOrigins.length > 0) {
    // before the host rule: a refused preflight is about its origin, whatever host it went to
    const allowed = new Set(config.studioOrigins);
    fastify.addHook('onRequest', (request, reply, done) => {
      const requested = request.headers['access-control-request-method'];
      const verdict = corsVerdict(
        request.method,
        request.headers.origin,
        typeof requested === 'string' ? requested : undefined,
        allowed,
      );
      if (verdict.kind === 'none') return done();
      if (verdict.kind === 'allow') {
        reply.headers(verdict.headers);
        return done();
      }
      if (verdict.kind === 'preflight') reply.code(204).headers(verdict.headers).send();
      else
        reply
          .code(403)
          .header('content-type', 'application/json; charset=utf-8')
          .send(
            errorEnvelope(
              String(request.id),
              'ORIGIN_NOT_ALLOWED',
              'this origin may not call the API (STUDIO_ORIGINS)',
            ),
          );
    });
  }
  if (config.publicDomain) {
    const domain = config.publicDomain;
    fastify.addHook('onRequest', (request, reply, done) => {
      const verdict = checkHost(request.headers.host, request.url.split('?')[0], domain, config.region);
      if (verdict.ok) return done();
      reply
        .code(verdict.status)
        .header('content-type', 'application/json; charset=utf-8')
        .send(errorEnvelope(String(request.id), verdict.code, verdict.message));
    });
  }
  fastify.addHook('onResponse', (request, reply, done) => {
    if (!logger.isLevelEnabled('info')) return done();
    logger.info(
      {
        reqId: request.id,
        method: request.method,
        url: redactUrl(request.url),
        // the client's address: X-Forwarded-For's client only behind TRUSTED_PROXIES
        ip: request.ip,
        status: reply.statusCode,
        ms: Math.round(reply.elapsedTime * 10) / 10,
      },
      'request',
    );
    done();
  });

  const app = await NestFactory.create<NestFastifyApplication>(
    AppModule.forRoot(config, logger, clock, extraControllers, voice),
    adapter,
    {
      logger: new PinoNestLogger(logger),
      abortOnError: false,
      bodyParser: false,
    },
  );
  // Requests by route template (never the raw URL: ids would make a series per conversation).
  const metrics = app.get(Metrics);
  fastify.addHook('onResponse', (request, reply, done) => {
    const route = request.routeOptions.url ?? 'unmatched';
    metrics.httpRequests.inc({ route, method: request.method, status: String(reply.statusCode) });
    metrics.httpDuration.observe({ route, method: request.method }, reply.elapsedTime / 1000);
    done();
  });
  // Key authentication of routes that declare it (RequireApiKey / RequireServiceToken), then the
  // byte budget: both before the body is read, so a refused body is never parsed.
  fastify.addHook('preParsing', app.get(KeyGate).hook());
  fastify.addHook('preParsing', bytes.hook(BODY_LIMIT_BYTES));
  const apiErrors = app.get(ApiErrorRecorder);
  app.useGlobalFilters(new EnvelopeExceptionFilter(logger, (request, status) => apiErrors.record(request, status)));
  app.useGlobalPipes(createValidationPipe());
  app.useGlobalInterceptors(app.get(IdempotencyInterceptor));
  // before init: the gateways bind to the adapter that is set when the app initialises
  app.useWebSocketAdapter(
    new ParleyWsAdapter(app.getHttpServer(), {
      logger,
      failures: app.get(AuthFailureThrottle),
      clientOf: (request) =>
        forwardedClient(request.socket.remoteAddress, request.headers['x-forwarded-for'], trustedProxy),
      hosts: config.publicDomain ? { domain: config.publicDomain, region: config.region } : null,
    }),
  );
  app.enableShutdownHooks();
  return app;
}
