import { failureReasonFor } from '../outbound-calls/sip/sip-call';
import { metadataHeaders, sdpOffer } from '../outbound-calls/sip/sdp';
import {
  branchOf,
  buildAck,
  buildBye,
  buildCancel,
  buildInvite,
  buildResponse,
  cseqOf,
  headerOf,
  headersOf,
  parseSipMessage,
  serialize,
  tagOf,
  uriOf,
  type DialogIds,
  type SipRequest,
} from './sip-message';

const dialog = (): DialogIds => ({
  callId: 'OUT-1@parley',
  localUri: 'sip:+15550100001@127.0.0.1',
  localTag: 'ltag',
  remoteUri: 'sip:+15551234567@127.0.0.1:5070',
  remoteTag: null,
  remoteTarget: 'sip:+15551234567@127.0.0.1:5070',
  localAddress: '127.0.0.1:40000',
});

describe('SIP messages', () => {
  it('builds an INVITE: request line, dialog headers, X- metadata, SDP with a correct Content-Length', () => {
    const { sdp } = sdpOffer('127.0.0.1', '42', 'UDP/RTP');
    const text = serialize(
      buildInvite(dialog(), 'z9hG4bKabc', metadataHeaders({ order_id: 'A-17', customer: 'Ada' }), sdp),
    );
    const [head, body] = text.split('\r\n\r\n');
    const lines = head.split('\r\n');
    expect(lines[0]).toBe('INVITE sip:+15551234567@127.0.0.1:5070 SIP/2.0');
    expect(lines).toEqual(
      expect.arrayContaining([
        'Via: SIP/2.0/UDP 127.0.0.1:40000;branch=z9hG4bKabc;rport',
        'From: <sip:+15550100001@127.0.0.1>;tag=ltag',
        'To: <sip:+15551234567@127.0.0.1:5070>',
        'Call-ID: OUT-1@parley',
        'CSeq: 1 INVITE',
        'Max-Forwards: 70',
        'Contact: <sip:parley@127.0.0.1:40000>',
        'X-order_id: A-17',
        'X-customer: Ada',
        'Content-Type: application/sdp',
        `Content-Length: ${Buffer.byteLength(sdp)}`,
      ]),
    );
    expect(body).toBe(sdp);
  });

  it('parses a response: status, reason, headers by any case or compact form, body cut at Content-Length', () => {
    const raw = [
      'SIP/2.0 200 OK',
      'v: SIP/2.0/UDP 127.0.0.1:40000;branch=z9hG4bKabc;rport=40000',
      'Via: SIP/2.0/UDP 10.0.0.1:5060;branch=z9hG4bKother',
      'f: <sip:+15550100001@127.0.0.1>;tag=ltag',
      'TO: "Bob" <sip:+15551234567@127.0.0.1:5070>;tag=rtag',
      'i: OUT-1@parley',
      'CSeq: 1 INVITE',
      'm: <sip:callee@127.0.0.1:5070;transport=UDP>',
      'Subject: a folded',
      '  header',
      'l: 4',
      '',
      'v=0\r\ntrailing garbage',
    ].join('\r\n');
    const message = parseSipMessage(raw)!;
    expect(message).toMatchObject({ kind: 'response', status: 200, reason: 'OK', body: 'v=0\r' });
    expect(headerOf(message, 'Call-ID')).toBe('OUT-1@parley');
    expect(headersOf(message, 'via')).toHaveLength(2);
    expect(branchOf(message)).toBe('z9hG4bKabc');
    expect(cseqOf(message)).toEqual({ seq: 1, method: 'INVITE' });
    expect(tagOf(headerOf(message, 'to'))).toBe('rtag');
    expect(tagOf(headerOf(message, 'from'))).toBe('ltag');
    expect(uriOf(headerOf(message, 'contact'))).toBe('sip:callee@127.0.0.1:5070;transport=UDP');
    expect(headerOf(message, 'subject')).toBe('a folded header');
  });

  it('parses requests and tolerates bare LF; ignores what is not SIP', () => {
    const bye = parseSipMessage('BYE sip:parley@127.0.0.1:40000 SIP/2.0\nCall-ID: x\nCSeq: 1 BYE\n\n');
    expect(bye).toMatchObject({ kind: 'request', method: 'BYE', uri: 'sip:parley@127.0.0.1:40000', body: '' });
    expect(parseSipMessage('\r\n\r\n')).toBeNull();
    expect(parseSipMessage('HELLO world')).toBeNull();
    expect(parseSipMessage('')).toBeNull();
  });

  it('tag and URI helpers: a tag inside the URI is not the header tag; a bare addr-spec has a URI', () => {
    expect(tagOf('<sip:a@b;tag=inside>')).toBeNull();
    expect(tagOf('<sip:a@b>;tag=outside')).toBe('outside');
    expect(uriOf('sip:a@b;tag=x')).toBe('sip:a@b');
    expect(uriOf(undefined)).toBeNull();
  });

  it("ACK of a 2xx goes to the callee's Contact on a new branch; ACK of a failure reuses the INVITE's branch and URI", () => {
    const d = { ...dialog(), remoteTag: 'rtag', remoteTarget: 'sip:callee@127.0.0.1:5070' };
    const ok = buildAck(d, 'sip:+15551234567@127.0.0.1:5070', 'z9hG4bKnew', true);
    expect(ok.uri).toBe('sip:callee@127.0.0.1:5070');
    expect(headerOf(ok, 'to')).toBe('<sip:+15551234567@127.0.0.1:5070>;tag=rtag');
    expect(headerOf(ok, 'cseq')).toBe('1 ACK');
    const failed = buildAck(d, 'sip:+15551234567@127.0.0.1:5070', 'z9hG4bKabc', false);
    expect(failed.uri).toBe('sip:+15551234567@127.0.0.1:5070');
    expect(branchOf(failed)).toBe('z9hG4bKabc');
  });

  it('CANCEL matches the INVITE (URI, branch, CSeq number) without a To tag; BYE carries the dialog and its own CSeq', () => {
    const d = { ...dialog(), remoteTag: 'rtag' };
    const cancel = buildCancel(d, 'sip:+15551234567@127.0.0.1:5070', 'z9hG4bKabc');
    expect(cancel.uri).toBe('sip:+15551234567@127.0.0.1:5070');
    expect(branchOf(cancel)).toBe('z9hG4bKabc');
    expect(headerOf(cancel, 'cseq')).toBe('1 CANCEL');
    expect(tagOf(headerOf(cancel, 'to'))).toBeNull();
    const bye = buildBye(d, 'z9hG4bKbye', 2);
    expect(headerOf(bye, 'cseq')).toBe('2 BYE');
    expect(tagOf(headerOf(bye, 'to'))).toBe('rtag');
    expect(tagOf(headerOf(bye, 'from'))).toBe('ltag');
  });

  it('a response copies Via, From, To, Call-ID and CSeq of the request, and nothing else', () => {
    const request = parseSipMessage(
      'BYE sip:x SIP/2.0\r\nVia: SIP/2.0/UDP 1.2.3.4;branch=z9hG4bK1\r\nFrom: <sip:a>;tag=1\r\nTo: <sip:b>;tag=2\r\nCall-ID: c\r\nCSeq: 1 BYE\r\nX-Other: y\r\n\r\n',
    ) as SipRequest;
    const text = serialize(buildResponse(request, 200, 'OK'));
    expect(text).toBe(
      'SIP/2.0 200 OK\r\nVia: SIP/2.0/UDP 1.2.3.4;branch=z9hG4bK1\r\nFrom: <sip:a>;tag=1\r\nTo: <sip:b>;tag=2\r\nCall-ID: c\r\nCSeq: 1 BYE\r\nContent-Length: 0\r\n\r\n',
    );
  });

  it('maps final failures to contract reasons: 486/600 busy; 408/480/487 no-answer; others rejected', () => {
    expect([486, 600].map(failureReasonFor)).toEqual(['busy', 'busy']);
    expect([408, 480, 487].map(failureReasonFor)).toEqual(['no-answer', 'no-answer', 'no-answer']);
    expect([403, 404, 503, 603].map(failureReasonFor)).toEqual(['rejected', 'rejected', 'rejected', 'rejected']);
  });
});

describe('SDP offer', () => {
  it('offers an inactive audio stream: RTP/AVP for RTP, RTP/SAVP with an SDES key for SRTP', () => {
    const rtp = sdpOffer('127.0.0.1', '7', 'TLS/RTP').sdp;
    expect(rtp).toContain('m=audio 9 RTP/AVP 0 8\r\n');
    expect(rtp).toContain('a=inactive\r\n');
    expect(rtp).not.toContain('a=crypto');
    const srtp = sdpOffer('127.0.0.1', '7', 'UDP/SRTP').sdp;
    expect(srtp).toContain('m=audio 9 RTP/SAVP 0 8\r\n');
    expect(srtp).toMatch(/a=crypto:1 AES_CM_128_HMAC_SHA1_80 inline:[A-Za-z0-9+/]{40}\r\n/);
    expect(sdpOffer('::1', '7', 'UDP/RTP').sdp).toContain('c=IN IP6 ::1');
  });
});
