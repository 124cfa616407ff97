import type { Server } from 'node:http';
import type { FastifyRequest } from 'fastify';
import type { EdgeConfig } from '../config/config';
import { DomainError } from '../errors/domain-error';
import type { AddressTest } from '../net/cidr';
import { answerConnect, answerExpectation } from './edge-errors';

/**
 * The timeouts of contract §21 as Fastify's and Node's own settings: Node times out headers and
 * whole requests (answered 408 by edge-errors.ts) and closes idle keep-alive sockets; Fastify
 * believes X-Forwarded-For (`request.ip`) only from trusted proxies. Node looks for expired
 * requests every `connectionsCheckingInterval` (30 s by default, which would stretch a 10 s header
 * timeout to 40 s): here at most a second, and finer for the short timeouts tests use.
 */
export function edgeServerOptions(edge: EdgeConfig, trustedProxy: AddressTest) {
  return {
    keepAliveTimeout: edge.keepAliveTimeoutMs,
    requestTimeout: edge.requestTimeoutMs,
    trustProxy: (address: string) => trustedProxy(address),
    http: {
      headersTimeout: edge.headersTimeoutMs,
      requestTimeout: edge.requestTimeoutMs,
      connectionsCheckingInterval: Math.max(50, Math.min(1000, Math.floor(edge.headersTimeoutMs / 4))),
      // a request without Host is answered by requireHost below, in the envelope, not by Node
      requireHostHeader: false,
    },
  };
}

/** The answers Node would otherwise give in its own words (or none): CONNECT, and an Expect it cannot meet. */
export function answerRawProtocol(server: Server): void {
  server.on('connect', answerConnect);
  server.on('checkExpectation', answerExpectation);
}

/** HTTP/1.1 requires Host (RFC 9112 §3.2): a request without one is 400 in the envelope. */
export function requireHost(request: FastifyRequest): DomainError | undefined {
  if (request.headers.host !== undefined || request.raw.httpVersion !== '1.1') return undefined;
  return new DomainError('HOST_REQUIRED', 'the Host header is required', 400);
}
