/**
 * What went wrong with an outbound request, as a class: the only thing recorded or shown (never
 * the socket's own text, which would turn a webhook into a scanner of the platform's network).
 * - `address_refused`: the URL, or an address its name resolved to, is internal (address-rules.ts)
 * - `connect_failed`: no HTTP answer: the name did not resolve, the connection was refused or
 *   reset, or the answer was not HTTP
 * - `tls_failed`: the TLS handshake failed (certificate, protocol)
 * - `timeout`: no complete answer within the request's timeout
 * - `invalid_request`: the request itself cannot be sent (a header value the HTTP client refuses,
 *   a URL that no longer passes the rules); sending it again cannot help
 * - `response_too_large`: the answer's body is larger than the caller accepts
 * An answer with any status, 3xx included (redirects are never followed), is a result, not an
 * error; callers that record it as a failure write `http_<status>`.
 */
export type OutboundErrorClass =
  'address_refused' | 'connect_failed' | 'tls_failed' | 'timeout' | 'invalid_request' | 'response_too_large';

export const httpStatusClass = (status: number) => `http_${status}`;

/** Certificate and handshake failures as Node and OpenSSL name them. */
const TLS_CODES =
  /^(ERR_TLS_|ERR_SSL_|CERT_|UNABLE_TO_|DEPTH_ZERO_SELF_SIGNED_CERT|SELF_SIGNED_CERT_IN_CHAIN|HOSTNAME_MISMATCH|ERR_OSSL_)/;

/** A client error's class; `handshaking`: the TCP connection was up, TLS not yet. */
export function classifySocketError(error: NodeJS.ErrnoException, handshaking: boolean): OutboundErrorClass {
  if (typeof error.code === 'string' && TLS_CODES.test(error.code)) return 'tls_failed';
  if (handshaking) return 'tls_failed';
  return 'connect_failed';
}
