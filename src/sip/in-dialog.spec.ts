import { parseSipMessage, type SipRequest } from './sip-message';
import type { NegotiatedAudio } from '../voice/call-media.port';
import {
  answerInfo,
  answerReinvite,
  answerUpdate,
  DialogMedia,
  InviteFinals,
  takeAck,
  type InDialogCall,
} from './in-dialog';

const KEY = Buffer.alloc(30, 5).toString('base64');
const OURS = Buffer.alloc(30, 6).toString('base64');

const sdp = (...lines: string[]) => `${lines.join('\r\n')}\r\n`;
const offer = (direction: string, proto = 'RTP/SAVP') =>
  sdp(
    'v=0',
    'c=IN IP4 10.0.0.7',
    `m=audio 7000 ${proto} 0`,
    ...(proto === 'RTP/SAVP' ? [`a=crypto:1 AES_CM_128_HMAC_SHA1_80 inline:${KEY}`] : []),
    `a=${direction}`,
  );

function request(method: string, seq: number, body = '', extra = ''): SipRequest {
  const text =
    `${method} sip:parley@127.0.0.1 SIP/2.0\r\nVia: SIP/2.0/UDP 10.0.0.7;branch=z9hG4bK${method}${seq}\r\n` +
    `From: <sip:a@x>;tag=far\r\nTo: <sip:b@y>;tag=near\r\nCall-ID: c1\r\nCSeq: ${seq} ${method}\r\n${extra}` +
    `Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`;
  return parseSipMessage(text) as SipRequest;
}

/** A call in a confirmed dialog, recording what it sent and where its audio was pointed. */
function call(options: { requireSrtp?: boolean; offered?: boolean } = {}) {
  const sent: string[] = [];
  const connects: NegotiatedAudio[] = [];
  const finals = new InviteFinals({
    send: (text) => sent.push(text),
    reliable: () => true,
    after: () => undefined,
    over: () => false,
    unacked: () => undefined,
  });
  const media = new DialogMedia({
    address: '127.0.0.1',
    sessionId: '9',
    port: () => 40000,
    offered: options.offered ? { tag: 1, suite: 'AES_CM_128_HMAC_SHA1_80', key: OURS } : null,
    requireSrtp: options.requireSrtp ?? false,
  });
  let state: 'early' | 'confirmed' | 'gone' = 'confirmed';
  const dialog: InDialogCall = {
    finals,
    media,
    state: () => state,
    dialogHeaders: () => [['Contact', '<sip:parley@127.0.0.1>']],
    respond: (req, status, reason, extras, remember) =>
      void finals.send(
        req,
        { kind: 'response', status, reason, headers: extras?.headers ?? [], body: extras?.sdp ?? '' },
        remember,
      ),
    connect: (audio) => connects.push(audio),
    resend: (text) => sent.push(text),
  };
  return { dialog, sent, connects, setState: (s: typeof state) => (state = s) };
}

describe('in-dialog requests (shared by inbound and outbound calls)', () => {
  it('re-INVITE: hold and resume move the audio, keep our SDES key and bump the o= version', () => {
    const c = call({ offered: true, requireSrtp: true });
    answerReinvite(request('INVITE', 2, offer('sendonly')), c.dialog);
    expect(c.sent[0]).toMatch(/^SIP\/2.0 200/);
    expect(c.sent[0]).toContain('a=recvonly');
    expect(c.sent[0]).toContain(`a=crypto:1 AES_CM_128_HMAC_SHA1_80 inline:${OURS}`);
    expect(c.sent[0]).toContain('o=parley 9 2 IN IP4');
    expect(c.connects.at(-1)).toMatchObject({ direction: 'sendonly', srtp: { localKey: OURS, remoteKey: KEY } });
    // the retransmission gets the same answer, nothing moves
    answerReinvite(request('INVITE', 2, offer('sendonly')), c.dialog);
    expect(c.sent[1]).toBe(c.sent[0]);
    expect(c.connects).toHaveLength(1);
    // a new offer before the ACK of that 200 crosses it
    answerReinvite(request('INVITE', 3, offer('sendrecv')), c.dialog);
    expect(c.sent[2]).toMatch(/^SIP\/2.0 491/);
    expect(takeAck(request('ACK', 2), c.dialog)).not.toBeNull();
    answerReinvite(request('INVITE', 4, offer('sendrecv')), c.dialog);
    expect(c.sent[3]).toContain('a=sendrecv');
    expect(c.sent[3]).toContain('o=parley 9 3 IN IP4');
    expect(c.connects.at(-1)).toMatchObject({ direction: 'sendrecv' });
  });

  it('re-INVITE: refusals leave the call as it was (a downgrade of SRTP, garbage, no dialog)', () => {
    const c = call({ offered: true, requireSrtp: true });
    answerReinvite(request('INVITE', 2, offer('sendrecv', 'RTP/AVP')), c.dialog);
    expect(c.sent[0]).toMatch(/^SIP\/2.0 488/);
    expect(c.sent[0]).toContain('downgrade');
    answerReinvite(request('INVITE', 3, 'not sdp'), c.dialog);
    expect(c.sent[1]).toMatch(/^SIP\/2.0 400/);
    c.setState('early');
    answerReinvite(request('INVITE', 4, offer('sendonly')), c.dialog);
    expect(c.sent[2]).toMatch(/^SIP\/2.0 491/);
    c.setState('gone');
    answerReinvite(request('INVITE', 5, offer('sendonly')), c.dialog);
    expect(c.sent[3]).toMatch(/^SIP\/2.0 481/);
    expect(c.connects).toHaveLength(0);
  });

  it('re-INVITE without an offer: ours (the call profile and key) in the 200, the answer read from the ACK', () => {
    const c = call({ offered: true, requireSrtp: true });
    answerReinvite(request('INVITE', 2), c.dialog);
    expect(c.sent[0]).toContain('m=audio 40000 RTP/SAVP 0 8 101');
    expect(c.sent[0]).toContain(`inline:${OURS}`);
    const answer = sdp(
      'v=0',
      'c=IN IP4 10.0.0.8',
      'm=audio 7002 RTP/SAVP 8',
      `a=crypto:1 AES_CM_128_HMAC_SHA1_80 inline:${KEY}`,
    );
    takeAck(request('ACK', 2, answer), c.dialog);
    expect(c.connects).toEqual([
      expect.objectContaining({
        codec: 'PCMA',
        remotePort: 7002,
        srtp: { suite: 'AES_CM_128_HMAC_SHA1_80', remoteKey: KEY, localKey: OURS },
      }),
    ]);
  });

  it('UPDATE: a refresh without a body, an offer answered at once, 415 for a body that is not SDP', () => {
    const c = call();
    expect(answerUpdate(request('UPDATE', 2), c.dialog).status).toBe(200);
    const answered = answerUpdate(request('UPDATE', 3, offer('inactive', 'RTP/AVP')), c.dialog);
    expect(answered.status).toBe(200);
    expect(answered.body).toContain('a=inactive');
    expect(c.connects).toEqual([expect.objectContaining({ direction: 'inactive', srtp: null })]);
    const json = request('UPDATE', 4, '{}', 'Content-Type: application/json\r\n');
    expect(answerUpdate(json, c.dialog).status).toBe(415);
    c.setState('gone');
    expect(answerUpdate(request('UPDATE', 5), c.dialog).status).toBe(481);
  });

  it('INFO: legacy INFO acknowledged, an Info Package refused with 469', () => {
    const c = call();
    expect(
      answerInfo(request('INFO', 2, 'Signal=5\r\n', 'Content-Type: application/dtmf-relay\r\n'), c.dialog).status,
    ).toBe(200);
    const refused = answerInfo(request('INFO', 3, '', 'Info-Package: foo\r\n'), c.dialog);
    expect(refused.status).toBe(469);
    expect(refused.headers).toContainEqual(['Recv-Info', '']);
  });
});
