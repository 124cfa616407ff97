import { createHash, randomBytes } from 'node:crypto';

/**
 * SIP digest authentication (RFC 3261 §22, RFC 2617, RFC 7616) as the client side: read a 401/407
 * challenge, answer it with the trunk's credentials. MD5 and SHA-256, `qop=auth` or none (RFC 2069);
 * `auth-int` alone is refused (it would hash the body on every retry and no trunk requires it).
 */

export interface DigestChallenge {
  realm: string;
  nonce: string;
  opaque: string | null;
  algorithm: 'MD5' | 'SHA-256';
  /** `auth` when the server offered it; null: the server wants the old RFC 2069 response */
  qop: 'auth' | null;
  stale: boolean;
}

/** The parameters of a `Digest …` challenge; null for another scheme or what cannot be answered. */
export function parseChallenge(header: string | undefined): DigestChallenge | null {
  const match = /^\s*Digest\s+(.*)$/is.exec(header ?? '');
  if (!match || match[1].length > 4096) return null;
  const params: Record<string, string> = {};
  const param = /([a-zA-Z0-9_-]+)\s*=\s*(?:"((?:[^"\\]|\\.)*)"|([^\s,]+))\s*(?:,|$)/g;
  for (let m = param.exec(match[1]); m; m = param.exec(match[1]))
    params[m[1].toLowerCase()] = m[2] !== undefined ? m[2].replace(/\\(.)/g, '$1') : m[3];
  if (params.realm === undefined || !params.nonce) return null;
  const algorithm = (params.algorithm ?? 'MD5').toUpperCase();
  if (algorithm !== 'MD5' && algorithm !== 'SHA-256') return null;
  const qops = params.qop?.split(',').map((q) => q.trim().toLowerCase());
  if (qops && !qops.includes('auth')) return null;
  return {
    realm: params.realm,
    nonce: params.nonce,
    opaque: params.opaque ?? null,
    algorithm,
    qop: qops ? 'auth' : null,
    stale: params.stale?.toLowerCase() === 'true',
  };
}

export interface DigestCredentials {
  username: string;
  password: string;
}

const hash = (algorithm: DigestChallenge['algorithm'], text: string) =>
  createHash(algorithm === 'MD5' ? 'md5' : 'sha256')
    .update(text)
    .digest('hex');

/** The `response` value: KD(H(A1), nonce[:nc:cnonce:qop]:H(A2)). */
export function digestResponse(
  challenge: DigestChallenge,
  credentials: DigestCredentials,
  method: string,
  uri: string,
  nc: string,
  cnonce: string,
): string {
  const ha1 = hash(challenge.algorithm, `${credentials.username}:${challenge.realm}:${credentials.password}`);
  const ha2 = hash(challenge.algorithm, `${method}:${uri}`);
  const middle = challenge.qop ? `${challenge.nonce}:${nc}:${cnonce}:${challenge.qop}` : challenge.nonce;
  return hash(challenge.algorithm, `${ha1}:${middle}:${ha2}`);
}

const quoted = (value: string) => `"${value.replace(/(["\\])/g, '\\$1')}"`;

/** The Authorization (401) or Proxy-Authorization (407) value for one request. */
export function authorization(
  challenge: DigestChallenge,
  credentials: DigestCredentials,
  method: string,
  uri: string,
  nonceCount = 1,
  cnonce = randomBytes(8).toString('hex'),
): string {
  const nc = nonceCount.toString(16).padStart(8, '0');
  const response = digestResponse(challenge, credentials, method, uri, nc, cnonce);
  const parts = [
    `username=${quoted(credentials.username)}`,
    `realm=${quoted(challenge.realm)}`,
    `nonce=${quoted(challenge.nonce)}`,
    `uri=${quoted(uri)}`,
    `response=${quoted(response)}`,
    `algorithm=${challenge.algorithm}`,
    ...(challenge.opaque !== null ? [`opaque=${quoted(challenge.opaque)}`] : []),
    ...(challenge.qop ? [`qop=${challenge.qop}`, `nc=${nc}`, `cnonce=${quoted(cnonce)}`] : []),
  ];
  return `Digest ${parts.join(', ')}`;
}
