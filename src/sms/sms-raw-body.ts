import type { FastifyInstance, FastifyRequest } from 'fastify';
import { bodyTooDeep, jsonTooDeep } from '../platform/validation/body-depth';

const INBOUND_PATH = '/v1/sms/inbound/:connectorId';

/** A media type only the inbound route's requests are given: its parser keeps the bytes. */
const RAW = 'application/vnd.parley.sms-inbound';

/**
 * The inbound signature is an HMAC over the raw body (contract §11), so this route must see the
 * bytes, not what a parser made of them: its Content-Type is set aside and swapped for a private
 * one whose parser hands over a Buffer (under the platform's body limit). Other routes keep theirs.
 */
export function keepInboundSmsBodies(fastify: FastifyInstance, bodyLimit: number): void {
  fastify.decorateRequest('smsContentType', '');
  fastify.addContentTypeParser(RAW, { parseAs: 'buffer', bodyLimit }, (request, body: Buffer, done) => {
    // the nesting limit of every body parser; a form body is flat
    if (!/form-urlencoded/i.test(inboundContentType(request)) && jsonTooDeep(body))
      return done(bodyTooDeep(), undefined);
    done(null, body);
  });
  fastify.addHook('onRequest', (request, _reply, done) => {
    if (request.routeOptions.url === INBOUND_PATH) {
      (request as FastifyRequest & { smsContentType: string }).smsContentType = String(
        request.headers['content-type'] ?? '',
      );
      request.headers['content-type'] = RAW;
    }
    done();
  });
}

export function inboundContentType(request: FastifyRequest): string {
  return (request as FastifyRequest & { smsContentType?: string }).smsContentType ?? '';
}
