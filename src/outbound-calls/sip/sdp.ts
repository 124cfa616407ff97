import { randomBytes } from 'node:crypto';
import type { Encryption } from '../outbound-call.events';

/**
 * The SDP offer of a call without media: the platform has no audio path yet, so it offers an
 * `inactive` audio stream (a valid offer that no side sends RTP on) in the profile the call's
 * `encryption` asks for: SRTP → RTP/SAVP with a fresh SDES key, RTP → RTP/AVP.
 */
export function sdpOffer(localIp: string, sessionId: string, encryption: Encryption): string {
  const ipVersion = localIp.includes(':') ? 'IP6' : 'IP4';
  const srtp = encryption.endsWith('/SRTP');
  const lines = [
    'v=0',
    `o=parley ${sessionId} ${sessionId} IN ${ipVersion} ${localIp}`,
    's=Parley',
    `c=IN ${ipVersion} ${localIp}`,
    't=0 0',
    // port 9 (discard): RFC 4566 allows any port for an inactive stream; 0 would refuse the stream
    `m=audio 9 ${srtp ? 'RTP/SAVP' : 'RTP/AVP'} 0 8`,
    'a=rtpmap:0 PCMU/8000',
    'a=rtpmap:8 PCMA/8000',
    ...(srtp ? [`a=crypto:1 AES_CM_128_HMAC_SHA1_80 inline:${randomBytes(30).toString('base64')}`] : []),
    'a=inactive',
  ];
  return `${lines.join('\r\n')}\r\n`;
}

/** The `X-` headers that carry a call's metadata to the callee. */
export function metadataHeaders(metadata: Record<string, string>): Array<[string, string]> {
  return Object.entries(metadata).map(([key, value]) => [`X-${key}`, value]);
}
