import { buildInactiveOffer, buildOffer, newSdesKey, OFFERED_CRYPTO, type OfferedKey } from '../../sip/sdp';
import type { Encryption } from '../outbound-call.events';

/**
 * The SDP offer of an outbound call, in the profile the call's `encryption` asks for: SRTP →
 * RTP/SAVP with a fresh SDES key, RTP → RTP/AVP. With the call audio's port (`audioPort`) it
 * offers PCMU, PCMA and telephone-event `sendrecv`; without a media side wired (null) it offers
 * an `inactive` stream no side sends RTP on. `offered` is the SDES key the offer carries (SRTP), for
 * reading the answer: the media side protects what it sends with it.
 */
export function sdpOffer(
  localIp: string,
  sessionId: string,
  encryption: Encryption,
  audioPort: number | null = null,
): { sdp: string; offered: OfferedKey | null } {
  const srtp = encryption.endsWith('/SRTP');
  const profile = srtp ? 'RTP/SAVP' : 'RTP/AVP';
  const offered = srtp ? { ...OFFERED_CRYPTO, key: newSdesKey() } : null;
  const local = { address: localIp, sessionId, version: 1 };
  const sdp =
    audioPort === null
      ? buildInactiveOffer(local, profile, offered?.key ?? null)
      : buildOffer({ ...local, port: audioPort }, profile, offered?.key ?? null);
  return { sdp, offered };
}

/** The `X-` headers that carry a call's metadata to the callee. */
export function metadataHeaders(metadata: Record<string, string>): Array<[string, string]> {
  return Object.entries(metadata).map(([key, value]) => [`X-${key}`, value]);
}
