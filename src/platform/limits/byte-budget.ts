import type { FastifyRequest, preParsingHookHandler } from 'fastify';
import type { DomainError } from '../errors/domain-error';
import { principalOf } from '../auth/principal';
import { rateLimited } from '../auth/rate-limiter';
import { clientAddress } from '../net/client-address';
import { TokenBuckets } from './token-buckets';

/**
 * Request body bytes budgeted per client address and per credential (contract §21,
 * BODY_BYTES_PER_S with bursts of BODY_BYTES_BURST), as requests are per key: a tenant posting
 * megabytes a second is answered 429 before its bodies are read, so parsing them cannot take the
 * event loop every tenant shares. The credential is the authenticated key when the route has one
 * (the key gate runs first), so a tenant cannot escape by spreading over addresses, nor an address
 * by spreading over keys.
 */
export class ByteBudget {
  private readonly byAddress: TokenBuckets;
  private readonly byCredential: TokenBuckets;

  constructor(bytesPerSecond: number, burst: number) {
    this.byAddress = new TokenBuckets(bytesPerSecond, burst);
    this.byCredential = new TokenBuckets(bytesPerSecond, burst);
  }

  /** Charges `bytes` to the request's address and credential, or throws 429 (nothing charged). */
  charge(request: FastifyRequest, bytes: number, nowMs = Date.now()): void {
    if (this.byAddress.off || bytes <= 0) return;
    const address = clientAddress(request.ip);
    const credential = credentialOf(request);
    const waitAddress = this.byAddress.wait(address, bytes, nowMs);
    const waitCredential = credential === null ? 0 : this.byCredential.wait(credential, bytes, nowMs);
    const retryAfter = Math.max(waitAddress, waitCredential);
    if (retryAfter > 0) throw budgetSpent(retryAfter);
    this.byAddress.take(address, bytes, nowMs);
    if (credential !== null) this.byCredential.take(credential, bytes, nowMs);
  }

  /**
   * The preParsing hook: a body that announces its length is charged before a byte of it is read
   * (one over the body limit is left to Fastify's 413). A chunked body is charged by the JSON
   * parser once read, before it is parsed.
   */
  hook(bodyLimit: number): preParsingHookHandler {
    return (request, _reply, payload, done) => {
      const length = Number(request.headers['content-length']);
      if (!(length > 0) || length > bodyLimit) return done(null, payload);
      try {
        this.charge(request, length);
      } catch (error) {
        return done(error as Error);
      }
      done(null, payload);
    };
  }
}

/** The authenticated key (or other principal) of the request, once the key gate has run. */
function credentialOf(request: FastifyRequest): string | null {
  const principal = principalOf(request);
  return principal ? `${principal.kind}:${principal.id}` : null;
}

/** 429 with Retry-After; Node drains the unread body (cheap: nothing is kept) so the client reads the answer. */
function budgetSpent(retryAfterS: number): DomainError {
  return rateLimited('RATE_LIMITED', 'too many request body bytes from this client; retry later', retryAfterS);
}
