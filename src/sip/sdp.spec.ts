import { answerDirection, buildAnswer, buildOffer, negotiateOffer, parseSdp, readAnswer } from './sdp';

const sdp = (...lines: string[]) => `${lines.join('\r\n')}\r\n`;

/** `sipp -sn uac`'s offer, as it goes on the wire. */
const SIPP = sdp(
  'v=0',
  'o=user1 53655765 2353687637 IN IP4 127.0.0.1',
  's=-',
  'c=IN IP4 127.0.0.1',
  't=0 0',
  'm=audio 6000 RTP/AVP 0',
  'a=rtpmap:0 PCMU/8000',
);

/** A Linphone desktop offer: Opus and Speex first, three telephone-event rates, a video stream. */
const LINPHONE = sdp(
  'v=0',
  'o=alice 1820 2637 IN IP4 192.168.1.20',
  's=Talk',
  'c=IN IP4 192.168.1.20',
  't=0 0',
  'a=rtcp-xr:rcvr-rtt=all:10000 stat-summary=loss,dup,jitt,TTL voip-metrics',
  'm=audio 7078 RTP/AVP 96 97 98 0 8 18 101 99 100',
  'a=rtpmap:96 opus/48000/2',
  'a=fmtp:96 useinbandfec=1',
  'a=rtpmap:97 speex/16000',
  'a=rtpmap:98 speex/8000',
  'a=fmtp:18 annexb=yes',
  'a=rtpmap:101 telephone-event/48000',
  'a=rtpmap:99 telephone-event/16000',
  'a=rtpmap:100 telephone-event/8000',
  'a=rtcp-fb:* trr-int 1000',
  'm=video 9078 RTP/AVP 96',
  'a=rtpmap:96 VP8/90000',
);

/** An Asterisk-style offer: PCMA first, GSM, telephone-event 101, explicit sendrecv. */
const ASTERISK = sdp(
  'v=0',
  'o=- 1234 1234 IN IP4 10.0.0.5',
  's=Asterisk',
  'c=IN IP4 10.0.0.5',
  't=0 0',
  'm=audio 10000 RTP/AVP 8 0 3 101',
  'a=rtpmap:8 PCMA/8000',
  'a=rtpmap:0 PCMU/8000',
  'a=rtpmap:3 GSM/8000',
  'a=rtpmap:101 telephone-event/8000',
  'a=fmtp:101 0-16',
  'a=ptime:20',
  'a=maxptime:150',
  'a=sendrecv',
);

const LOCAL = { address: '127.0.0.1', port: 40000, sessionId: '9', version: 1 };
const KEY = Buffer.alloc(30, 3).toString('base64');
const OURS = Buffer.alloc(30, 4).toString('base64');

describe('SDP offer/answer', () => {
  it("sipp's offer: PCMU on its port, no DTMF, sendrecv by default; the answer mirrors it", () => {
    const offer = parseSdp(SIPP)!;
    const verdict = negotiateOffer(offer);
    expect(verdict).toEqual({
      ok: true,
      index: 0,
      cryptoTag: null,
      audio: {
        codec: 'PCMU',
        payloadType: 0,
        dtmfPayloadType: null,
        remoteAddress: '127.0.0.1',
        remotePort: 6000,
        direction: 'sendrecv',
        srtp: null,
      },
    });
    if (!verdict.ok) throw new Error('unreachable');
    const answer = buildAnswer(LOCAL, offer, verdict);
    expect(answer).toContain('c=IN IP4 127.0.0.1\r\n');
    expect(answer).toContain('m=audio 40000 RTP/AVP 0\r\na=rtpmap:0 PCMU/8000\r\n');
    expect(answer).toContain('a=sendrecv\r\n');
    expect(answer).not.toContain('telephone-event');
  });

  it("Linphone's offer: skips Opus and Speex for PCMU, takes the 8 kHz telephone-event, declines the video", () => {
    const offer = parseSdp(LINPHONE)!;
    const verdict = negotiateOffer(offer);
    expect(verdict).toMatchObject({
      ok: true,
      index: 0,
      audio: { codec: 'PCMU', payloadType: 0, dtmfPayloadType: 100, remotePort: 7078, remoteAddress: '192.168.1.20' },
    });
    if (!verdict.ok) throw new Error('unreachable');
    const answer = buildAnswer(LOCAL, offer, verdict);
    expect(answer).toContain('m=audio 40000 RTP/AVP 0 100\r\n');
    expect(answer).toContain('a=rtpmap:100 telephone-event/8000\r\na=fmtp:100 0-16\r\n');
    // RFC 3264 §6: as many m= lines as the offer, the refused one with port 0
    expect(answer).toContain('m=video 0 RTP/AVP 96\r\n');
    expect(answer.indexOf('m=audio')).toBeLessThan(answer.indexOf('m=video'));
  });

  it("an Asterisk offer: the offerer's order wins (PCMA before PCMU), DTMF 101 with its fmtp", () => {
    const verdict = negotiateOffer(parseSdp(ASTERISK)!);
    expect(verdict).toMatchObject({ ok: true, audio: { codec: 'PCMA', payloadType: 8, dtmfPayloadType: 101 } });
    // unless the media side cannot do it
    expect(negotiateOffer(parseSdp(ASTERISK)!, ['PCMU'])).toMatchObject({ audio: { codec: 'PCMU', payloadType: 0 } });
  });

  it('a dynamic payload type mapped to PCMA counts; a static one with no rtpmap is read by RFC 3551', () => {
    const dynamic = sdp('v=0', 'c=IN IP4 10.1.1.1', 'm=audio 5000 RTP/AVP 112', 'a=rtpmap:112 pcma/8000');
    expect(negotiateOffer(parseSdp(dynamic)!)).toMatchObject({ audio: { codec: 'PCMA', payloadType: 112 } });
    const bare = sdp('v=0', 'c=IN IP4 10.1.1.1', 'm=audio 5000 RTP/AVP 8');
    expect(negotiateOffer(parseSdp(bare)!)).toMatchObject({ audio: { codec: 'PCMA', payloadType: 8 } });
  });

  it('the media-level c= wins over the session one; a stream without any address is refused', () => {
    const both = sdp('v=0', 'c=IN IP4 10.0.0.1', 'm=audio 5000 RTP/AVP 0', 'c=IN IP4 10.0.0.2/127');
    expect(negotiateOffer(parseSdp(both)!)).toMatchObject({ audio: { remoteAddress: '10.0.0.2' } });
    const none = sdp('v=0', 'm=audio 5000 RTP/AVP 0');
    expect(negotiateOffer(parseSdp(none)!)).toEqual({ ok: false, why: expect.stringContaining('c=') });
  });

  it('hold: sendonly (answered recvonly), inactive, and RFC 2543 c=0.0.0.0 (read as inactive)', () => {
    const hold = sdp('v=0', 'c=IN IP4 10.0.0.5', 'm=audio 10000 RTP/AVP 0', 'a=sendonly');
    const verdict = negotiateOffer(parseSdp(hold)!);
    expect(verdict).toMatchObject({ audio: { direction: 'sendonly' } });
    if (!verdict.ok) throw new Error('unreachable');
    expect(buildAnswer(LOCAL, parseSdp(hold)!, verdict)).toContain('a=recvonly\r\n');
    const old = sdp('v=0', 'c=IN IP4 0.0.0.0', 'm=audio 10000 RTP/AVP 0');
    expect(negotiateOffer(parseSdp(old)!)).toMatchObject({ audio: { direction: 'inactive' } });
    const sessionLevel = sdp('v=0', 'c=IN IP4 10.0.0.5', 'a=inactive', 'm=audio 10000 RTP/AVP 0');
    expect(negotiateOffer(parseSdp(sessionLevel)!)).toMatchObject({ audio: { direction: 'inactive' } });
    expect(['sendrecv', 'sendonly', 'recvonly', 'inactive'].map((d) => answerDirection(d as never))).toEqual([
      'sendrecv',
      'recvonly',
      'sendonly',
      'inactive',
    ]);
  });

  it('refuses what it cannot take: Opus only, SRTP without a usable key, DTLS-SRTP, a refused stream, no audio at all', () => {
    const opus = sdp('v=0', 'c=IN IP4 10.0.0.1', 'm=audio 5000 RTP/AVP 96', 'a=rtpmap:96 opus/48000/2');
    expect(negotiateOffer(parseSdp(opus)!)).toEqual({ ok: false, why: expect.stringContaining('codec') });
    const srtp = sdp('v=0', 'c=IN IP4 10.0.0.1', 'm=audio 5000 RTP/SAVP 0');
    expect(negotiateOffer(parseSdp(srtp)!)).toEqual({ ok: false, why: expect.stringContaining('SDES key') });
    for (const crypto of [
      `a=crypto:1 AES_256_CM_HMAC_SHA1_80 inline:${KEY}`, // a suite Parley does not speak
      `a=crypto:1 AES_CM_128_HMAC_SHA1_80 inline:${KEY}|2^20|1:4`, // an MKI
      'a=crypto:1 AES_CM_128_HMAC_SHA1_80 inline:c2hvcnQ=', // a key of the wrong length
      `a=crypto:1 AES_CM_128_HMAC_SHA1_80 inline:${KEY} UNENCRYPTED_SRTP`, // a session parameter
    ]) {
      const offer = sdp('v=0', 'c=IN IP4 10.0.0.1', 'm=audio 5000 RTP/SAVP 0', crypto);
      expect(negotiateOffer(parseSdp(offer)!)).toEqual({ ok: false, why: expect.stringContaining('SDES key') });
    }
    const dtls = sdp('v=0', 'c=IN IP4 10.0.0.1', 'm=audio 5000 UDP/TLS/RTP/SAVP 0');
    expect(negotiateOffer(parseSdp(dtls)!)).toEqual({ ok: false, why: expect.stringContaining('UDP/TLS/RTP/SAVP') });
    const refused = sdp('v=0', 'c=IN IP4 10.0.0.1', 'm=audio 0 RTP/AVP 0');
    expect(negotiateOffer(parseSdp(refused)!).ok).toBe(false);
    const video = sdp('v=0', 'c=IN IP4 10.0.0.1', 'm=video 5000 RTP/AVP 96');
    expect(negotiateOffer(parseSdp(video)!)).toEqual({ ok: false, why: 'the offer has no audio stream' });
    // a PCMU that is not 8 kHz is not G.711 as Parley speaks it
    const wide = sdp('v=0', 'c=IN IP4 10.0.0.1', 'm=audio 5000 RTP/AVP 0', 'a=rtpmap:0 PCMU/16000');
    expect(negotiateOffer(parseSdp(wide)!).ok).toBe(false);
  });

  it('hostile or broken bodies parse to null, never throw', () => {
    for (const text of [
      '',
      'hello',
      'v=1\r\n',
      'v=0\r\nm=audio x RTP/AVP 0\r\n',
      'v=0\r\nm=audio 99999 RTP/AVP 0\r\n',
      'v=0\r\nc=IN XX 1.2.3.4\r\n',
      'v=0\r\nnot a line\r\n',
      `v=0\r\n${'a=x\r\n'.repeat(5000)}`,
      `v=0\r\nm=audio 5000 RTP/AVP ${Array.from({ length: 100 }, (_, i) => i).join(' ')}\r\n`,
    ])
      expect(parseSdp(text)).toBeNull();
  });

  it('RTP/SAVP with SDES: the first usable key is taken (a lifetime is fine), our answer carries our key under its tag', () => {
    const offer = sdp(
      'v=0',
      'c=IN IP4 10.0.0.1',
      'm=audio 5000 RTP/SAVP 0 101',
      'a=rtpmap:101 telephone-event/8000',
      `a=crypto:1 AES_256_CM_HMAC_SHA1_80 inline:${KEY}`,
      `a=crypto:2 AES_CM_128_HMAC_SHA1_32 inline:${KEY}|2^31`,
      `a=crypto:3 AES_CM_128_HMAC_SHA1_80 inline:${KEY}`,
    );
    const verdict = negotiateOffer(parseSdp(offer)!, ['PCMU', 'PCMA'], OURS);
    expect(verdict).toMatchObject({
      ok: true,
      cryptoTag: 2,
      audio: { codec: 'PCMU', srtp: { suite: 'AES_CM_128_HMAC_SHA1_32', remoteKey: KEY, localKey: OURS } },
    });
    if (!verdict.ok) throw new Error('unreachable');
    const answer = buildAnswer(LOCAL, parseSdp(offer)!, verdict);
    expect(answer).toContain('m=audio 40000 RTP/SAVP 0 101\r\n');
    expect(answer).toContain(`a=crypto:2 AES_CM_128_HMAC_SHA1_32 inline:${OURS}\r\n`);
    // without a key of ours given, a fresh one each time
    const fresh = negotiateOffer(parseSdp(offer)!);
    expect(fresh.ok && fresh.audio.srtp?.localKey).toMatch(/^[A-Za-z0-9+/]{40}$/);
    expect(fresh.ok && fresh.audio.srtp?.localKey).not.toBe(OURS);
    // a plain stream has no keys
    expect(negotiateOffer(parseSdp(ASTERISK)!)).toMatchObject({ cryptoTag: null, audio: { srtp: null } });
  });

  it('reads an answer in the profile it offered: RTP/SAVP accepting our tag and suite, or plain RTP/AVP', () => {
    const offered = { tag: 1, suite: 'AES_CM_128_HMAC_SHA1_80' as const, key: OURS };
    const savp = (crypto: string) => parseSdp(sdp('v=0', 'c=IN IP4 10.0.0.9', 'm=audio 6000 RTP/SAVP 8', crypto))!;
    expect(readAnswer(savp(`a=crypto:1 AES_CM_128_HMAC_SHA1_80 inline:${KEY}`), offered)).toMatchObject({
      codec: 'PCMA',
      remotePort: 6000,
      srtp: { suite: 'AES_CM_128_HMAC_SHA1_80', remoteKey: KEY, localKey: OURS },
    });
    expect(readAnswer(savp(`a=crypto:2 AES_CM_128_HMAC_SHA1_80 inline:${KEY}`), offered)).toBeNull();
    expect(readAnswer(savp(`a=crypto:1 AES_CM_128_HMAC_SHA1_32 inline:${KEY}`), offered)).toBeNull();
    expect(readAnswer(savp(`a=crypto:1 AES_CM_128_HMAC_SHA1_80 inline:${KEY}`), null)).toBeNull();
    expect(readAnswer(parseSdp(ASTERISK)!, offered)).toBeNull();
    expect(readAnswer(parseSdp(ASTERISK)!, null)).toMatchObject({ codec: 'PCMA', srtp: null });
  });

  it('our offer carries the real port, PCMU, PCMA, telephone-event and sendrecv; we read the answer the far end chose', () => {
    const offer = buildOffer(LOCAL, 'RTP/AVP', null);
    expect(offer).toContain('m=audio 40000 RTP/AVP 0 8 101\r\n');
    expect(offer).toContain('a=rtpmap:101 telephone-event/8000\r\n');
    expect(offer).toContain('a=sendrecv\r\n');
    expect(buildOffer(LOCAL, 'RTP/SAVP', 'KEY')).toContain('m=audio 40000 RTP/SAVP 0 8 101\r\n');
    expect(readAnswer(parseSdp(ASTERISK)!)).toMatchObject({
      codec: 'PCMA',
      remotePort: 10000,
      remoteAddress: '10.0.0.5',
    });
    expect(readAnswer(parseSdp(sdp('v=0', 'c=IN IP4 1.2.3.4', 'm=audio 0 RTP/AVP 0'))!)).toBeNull();
  });
});
