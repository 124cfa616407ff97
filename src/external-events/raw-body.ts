import type { FastifyInstance, FastifyRequest } from 'fastify';
import { bodyTooDeep, jsonTooDeep, xmlTooDeep } from '../platform/validation/body-depth';
import { bodyKindOf, type BodyKind } from './event-id';

const WEBHOOK_PATH = '/v1/external-events/webhook';

/** A media type only this route's requests are given: its parser keeps the bytes as they came. */
const OPAQUE = 'application/vnd.parley.external-event';

/**
 * The webhook treats its body as opaque data (interface.md): it must see the bytes, not what the
 * JSON or form parser makes of them, and take XML too. So for this route alone the request's
 * Content-Type is set aside and swapped for a private one whose parser hands over a Buffer (under
 * the same body limit: 413 past it). Every other route keeps the usual parsers.
 */
export function keepRawBodies(fastify: FastifyInstance, bodyLimit: number): void {
  fastify.decorateRequest('deliveredContentType', '');
  fastify.addContentTypeParser(OPAQUE, { parseAs: 'buffer', bodyLimit }, (request, body: Buffer, done) => {
    if (nestsTooDeep(bodyKindOf(deliveredContentType(request)), body)) return done(bodyTooDeep(), undefined);
    done(null, body);
  });
  fastify.addHook('onRequest', (request, _reply, done) => {
    if (request.routeOptions.url === WEBHOOK_PATH) {
      (request as FastifyRequest & { deliveredContentType: string }).deliveredContentType = String(
        request.headers['content-type'] ?? '',
      );
      request.headers['content-type'] = OPAQUE;
    }
    done();
  });
}

/**
 * The nesting limit of every body parser, for the two kinds that nest: JSON (one pass over the
 * bytes, on the webhook's hot path) and XML. A form is flat and a text body is opaque.
 */
function nestsTooDeep(kind: BodyKind | null, body: Buffer): boolean {
  if (kind === 'json') return jsonTooDeep(body);
  return kind === 'xml' && xmlTooDeep(body.toString('utf8'));
}

/** The Content-Type the sender gave (the header itself was swapped, see keepRawBodies). */
export function deliveredContentType(request: FastifyRequest): string {
  return (request as FastifyRequest & { deliveredContentType?: string }).deliveredContentType ?? '';
}
