import { randomBytes } from 'node:crypto';
import { buildInactiveOffer, buildOffer } from '../../sip/sdp';
import type { Encryption } from '../outbound-call.events';

/**
 * The SDP offer of an outbound call, in the profile the call's `encryption` asks for: SRTP →
 * RTP/SAVP with a fresh SDES key, RTP → RTP/AVP. With the call audio's port (`audioPort`) it
 * offers PCMU, PCMA and telephone-event `sendrecv`; without a media side wired (null) it offers
 * an `inactive` stream no side sends RTP on.
 */
export function sdpOffer(
  localIp: string,
  sessionId: string,
  encryption: Encryption,
  audioPort: number | null = null,
): string {
  const srtp = encryption.endsWith('/SRTP');
  const profile = srtp ? 'RTP/SAVP' : 'RTP/AVP';
  const crypto = srtp ? randomBytes(30).toString('base64') : null;
  const local = { address: localIp, sessionId, version: 1 };
  return audioPort === null
    ? buildInactiveOffer(local, profile, crypto)
    : buildOffer({ ...local, port: audioPort }, profile, crypto);
}

/** The `X-` headers that carry a call's metadata to the callee. */
export function metadataHeaders(metadata: Record<string, string>): Array<[string, string]> {
  return Object.entries(metadata).map(([key, value]) => [`X-${key}`, value]);
}
