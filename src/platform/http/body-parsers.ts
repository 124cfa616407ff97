import type { FastifyAdapter } from '@nestjs/platform-fastify';
import { DomainError } from '../errors/domain-error';
import type { ByteBudget } from '../limits/byte-budget';
import { bodyTooDeep, jsonTooDeep } from '../validation/body-depth';

/**
 * The platform's one general body parser: JSON, under the body limit and the nesting limit. The
 * depth is checked on the raw bytes before parsing, so a body nested thousands deep is a 400, not
 * a stack overflow in class-transformer or in a projection's JSON.stringify.
 *
 * Fastify's text/plain parser and Nest's form parser are not registered: a JSON route given a
 * string or a form (or a body with no Content-Type) answers 415 ("Content-Type must be application/json") instead of validating the
 * raw string as if it were the body. Routes that read other types (the external-events webhook,
 * inbound SMS, the messaging POSTs) swap in a private media type with a parser of their own.
 * Call before NestFactory.create, which is given `bodyParser: false`.
 */
export function registerBodyParsers(adapter: FastifyAdapter, bodyLimit: number, budget: ByteBudget): void {
  const fastify = adapter.getInstance();
  fastify.removeContentTypeParser('text/plain');
  // Any other type: an empty body is no body (`curl -d ''` sends a form type), anything else is
  // 415 at once, never collected (Node drains what is left, keeping nothing).
  fastify.addContentTypeParser('*', { bodyLimit }, (request, _payload, done) => {
    const length = request.headers['content-length'];
    if (request.headers['transfer-encoding'] === undefined && (length === undefined || Number(length) === 0))
      return done(null, undefined);
    done(unsupportedMediaType(), undefined);
  });
  const { onProtoPoisoning, onConstructorPoisoning } = fastify.initialConfig;
  const parseJson = fastify.getDefaultJsonParser(onProtoPoisoning ?? 'error', onConstructorPoisoning ?? 'error');
  adapter.useBodyParser('application/json', false, { bodyLimit }, (request, body, done) => {
    // a body that announced its length was charged before it was read (ByteBudget.hook)
    if (request.headers['content-length'] === undefined) {
      try {
        budget.charge(request, Buffer.byteLength(body as unknown as string));
      } catch (error) {
        return done(error as Error, undefined);
      }
    }
    if (jsonTooDeep(body)) return done(bodyTooDeep(), undefined);
    parseJson(request, body as unknown as string, done);
  });
}

function unsupportedMediaType(): DomainError {
  return new DomainError('UNSUPPORTED_MEDIA_TYPE', 'Content-Type must be application/json', 415);
}
