import dns from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import { rootCertificates } from 'node:tls';
import type { LookupFunction, Socket } from 'node:net';
import { addressKind, refusedAddress } from './address-rules';
import { classifySocketError, type OutboundErrorClass } from './outbound-errors';
import { checkOutboundUrl } from './outbound-url';

export interface OutboundRequest {
  url: string;
  /** default POST */
  method?: string;
  headers?: Record<string, string>;
  body?: string | Buffer;
  /** For the whole exchange: name resolution, connection, TLS, answer. */
  timeoutMs: number;
  /**
   * The largest answer body read (default 1 MiB; larger: `response_too_large`). 0: the status
   * line and headers are the answer; the body is drained unread (webhooks).
   */
  maxResponseBytes?: number;
}

interface OutboundResponse {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
}

export type OutboundResult = OutboundResponse | { error: OutboundErrorClass };

export interface ResolvedAddress {
  address: string;
  family: number;
}

/** Every address of a name (dns.lookup: hosts file and resolver, as the OS would connect). */
export type Resolver = (hostname: string) => Promise<ResolvedAddress[]>;

export interface OutboundOptions {
  /** Loopback hosts allowed, over http too (WEBHOOK_ALLOW_HTTP=1); private ranges never. */
  allowLoopback: boolean;
  resolve?: Resolver;
  /** A PEM certificate trusted besides the system's roots (a test receiver's; config.tools.testCaFile). */
  extraCa?: string;
}

const DEFAULT_MAX_RESPONSE_BYTES = 1024 * 1024;
const METHOD = /^[A-Z]{1,16}$/;

const systemResolver: Resolver = (hostname) => dns.promises.lookup(hostname, { all: true, verbatim: true });

export const isOutboundError = (result: OutboundResult): result is { error: OutboundErrorClass } => 'error' in result;

/**
 * The one way the platform makes HTTP requests on a customer's behalf (webhooks; agent tools and
 * carriers to come). It resolves the host itself, refuses the request when any address is internal
 * (address-rules.ts), and connects to the address it checked (the socket's lookup answers with it:
 * no second resolution, so a name cannot be rebound to an internal address in between). TLS still
 * verifies the certificate for the name. Redirects are never followed; everything is bounded by
 * `timeoutMs`. Failures come back as classes (outbound-errors.ts), never thrown.
 */
export class OutboundHttp {
  private readonly resolve: Resolver;
  private readonly ca: string[] | undefined;

  constructor(private readonly options: OutboundOptions) {
    this.resolve = options.resolve ?? systemResolver;
    this.ca = options.extraCa ? [...rootCertificates, options.extraCa] : undefined;
  }

  async send(request: OutboundRequest): Promise<OutboundResult> {
    const checked = checkOutboundUrl(request.url, { allowLoopback: this.options.allowLoopback });
    if (checked.url === null) return { error: checked.internal ? 'address_refused' : 'invalid_request' };
    const method = request.method ?? 'POST';
    if (!METHOD.test(method)) return { error: 'invalid_request' };
    const url = checked.url;
    const startedAt = Date.now();
    const pinned = await this.pin(url.hostname, request.timeoutMs);
    if ('error' in pinned) return pinned;
    return exchange(url, method, request, pinned, Math.max(1, request.timeoutMs - (Date.now() - startedAt)), this.ca);
  }

  /** The address to connect to: the literal, or the first address of the name once all of them pass. */
  private async pin(hostname: string, timeoutMs: number): Promise<ResolvedAddress | { error: OutboundErrorClass }> {
    const literal = hostname.startsWith('[') ? hostname.slice(1, -1) : hostname;
    if (addressKind(literal) !== null) return { address: literal, family: literal.includes(':') ? 6 : 4 };
    let timer: NodeJS.Timeout | undefined;
    let addresses: ResolvedAddress[];
    try {
      const timedOut = new Promise<'timeout'>((resolve) => (timer = setTimeout(() => resolve('timeout'), timeoutMs)));
      const answer = await Promise.race([this.resolve(literal), timedOut]);
      if (answer === 'timeout') return { error: 'timeout' };
      addresses = answer;
    } catch {
      return { error: 'connect_failed' };
    } finally {
      clearTimeout(timer);
    }
    if (addresses.length === 0) return { error: 'connect_failed' };
    // one internal address among public ones is refused too: the connection could go to any of them
    if (addresses.some((a) => refusedAddress(a.address, { allowLoopback: this.options.allowLoopback }) !== null))
      return { error: 'address_refused' };
    return { address: addresses[0].address, family: addresses[0].address.includes(':') ? 6 : 4 };
  }
}

/** One request to `pinned`, settled once: an answer, or the class of what went wrong. */
function exchange(
  url: URL,
  method: string,
  request: OutboundRequest,
  pinned: ResolvedAddress,
  timeoutMs: number,
  ca: string[] | undefined,
): Promise<OutboundResult> {
  return new Promise((resolve) => {
    let settled = false;
    let outgoing: http.ClientRequest | undefined;
    const finish = (result: OutboundResult) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(result);
    };
    const timer = setTimeout(() => {
      finish({ error: 'timeout' });
      outgoing?.destroy();
    }, timeoutMs);
    const lookup: LookupFunction = (_hostname, options, callback) => {
      // net asks for every address when it may race families (autoSelectFamily): give it the one
      if ((options as { all?: boolean }).all) (callback as (e: null, a: ResolvedAddress[]) => void)(null, [pinned]);
      else callback(null, pinned.address, pinned.family);
    };
    const body = request.body ?? '';
    const tls = url.protocol === 'https:';
    let handshaking = false;
    try {
      outgoing = (tls ? https : http).request(url, {
        method,
        agent: false,
        lookup,
        ...(tls && ca ? { ca } : {}),
        headers: { ...request.headers, 'content-length': String(Buffer.byteLength(body)) },
      });
    } catch {
      // e.g. a header value with a line break (ERR_INVALID_CHAR): the same request can never be sent
      return finish({ error: 'invalid_request' });
    }
    outgoing.on('socket', (socket: Socket) => {
      if (!tls) return;
      socket.once('connect', () => (handshaking = true));
      socket.once('secureConnect', () => (handshaking = false));
    });
    outgoing.on('error', (error: NodeJS.ErrnoException) => finish({ error: classifySocketError(error, handshaking) }));
    outgoing.on('response', (response) => {
      response.on('error', () => finish({ error: 'connect_failed' }));
      const status = response.statusCode ?? 0;
      const limit = request.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES;
      if (limit === 0) {
        finish({ status, headers: response.headers, body: Buffer.alloc(0) });
        // the body is not wanted, and a receiver streaming without end would hold the socket past the timeout
        outgoing?.destroy();
        return;
      }
      const chunks: Buffer[] = [];
      let size = 0;
      response.on('data', (chunk: Buffer) => {
        size += chunk.length;
        if (size > limit) {
          finish({ error: 'response_too_large' });
          outgoing?.destroy();
          return;
        }
        chunks.push(chunk);
      });
      response.on('end', () => finish({ status, headers: response.headers, body: Buffer.concat(chunks) }));
    });
    outgoing.end(body);
  });
}
