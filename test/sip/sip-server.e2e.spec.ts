import dgram from 'node:dgram';
import net from 'node:net';
import { EVENT_STORE, type EventStore } from '../../src/event-store/event-store.port';
import { SipServer } from '../../src/sip/sip-server';
import { request, startTestApp, type TestApp } from '../helpers/test-app';
import { callAccount, inboundCall, limits, op, provision, setLimit, type CallAccount } from '../calls/calls-fixture';
import { callStatus, eventually, placeCall } from '../outbound-calls/outbound-calls-fixture';
import { freeUdpPort, runCallee, sippAvailable, sippMissing } from '../outbound-calls/sipp';
import { RecordingCallAudioFactory, RecordingVoiceCalls } from './recording-voice';
import { refusedCallXml, runCaller, type SippResult } from './sipp-uac';

const available = sippAvailable();
if (!available) sippMissing();
const describeSip = available ? describe : describe.skip;

const IN_SID = /^IN-[0-9a-f-]{36}$/;

describeSip('the SIP user agent server against sipp as the caller (and the trunk as a digest-checking callee)', () => {
  let t: TestApp;
  let sipPort: number;
  let trunkPort: number;
  let acme: CallAccount;
  let globex: CallAccount;
  const audio = new RecordingCallAudioFactory();
  const voice = new RecordingVoiceCalls();

  beforeAll(async () => {
    trunkPort = await freeUdpPort();
    t = await startTestApp(
      {
        PARLEY_TEST_CLOCK: '1',
        SIP_LISTEN_PORT: '0',
        // long enough for sipp to CANCEL after the 180
        SIP_ANSWER_DELAY_MS: '800',
        OUTBOUND_CARRIER: 'sip',
        SIP_TRUNK: `127.0.0.1:${trunkPort}`,
        SIP_TRUNK_USERNAME: 'parley',
        SIP_TRUNK_PASSWORD: 's3cret-pass',
        OUTBOUND_RING_TIMEOUT_S: '10',
        // small, so the test of a full platform (503) needs only two calls
        SIP_MAX_CALLS: '2',
      },
      undefined,
      [],
      { audio, calls: voice },
    );
    sipPort = t.app.get(SipServer).address()!.port;
    acme = await callAccount(t, 'Acme', '+15550100001');
    globex = await callAccount(t, 'Globex', '+15550200002');
  });
  afterAll(async () => t?.close());

  const conversation = (account: CallAccount, id: string) =>
    // the caller's BYE ends it in the background: read once the read model has the end
    eventually(
      () =>
        request(`${t.url}/v3/${account.accountId}/${account.agentId}/conversations/${id}?include_context_state=true`, {
          headers: { 'x-api-key': account.key },
        }),
      (r) => r.status === 200 && r.body.in_progress === false,
      10_000,
    );
  const expectSipp = (result: SippResult) => {
    if (result.code !== 0) console.error(result.output);
    expect(result.code).toBe(0);
  };
  const inboundStatus = (sid: string) => request(`${t.url}/admin/v1/carrier/inbound-calls/${sid}`, { headers: op(t) });

  it('sipp -sn uac: 100, 180, 200 with an SDP answer on the call audio port, ACK, BYE from the caller', async () => {
    const before = voice.calls.length;
    expectSipp(await runCaller({ builtin: 'uac' }, { port: sipPort, service: acme.number }));
    expect(voice.calls).toHaveLength(before + 1);
    const call = voice.calls.at(-1)!;
    expect(call).toMatchObject({
      conversationId: expect.stringMatching(IN_SID),
      direction: 'inbound',
    });
    // the platform's own ids, as the event streams hold them (the API's carry a prefix)
    expect(acme.accountId.endsWith(call.accountId)).toBe(true);
    expect(acme.agentId.endsWith(call.agentId)).toBe(true);
    await call.ended;
    const recorded = audio.opened.find((a) => a === call.audio)!;
    expect(recorded.connects).toEqual([
      {
        codec: 'PCMU',
        payloadType: 0,
        dtmfPayloadType: null,
        remoteAddress: '127.0.0.1',
        remotePort: expect.any(Number),
        direction: 'sendrecv',
        srtp: null,
      },
    ]);
    expect(recorded.closed).toBe(true);
    // the same path as the simulator: a conversation with the greeting, ended by the caller
    const c = await conversation(acme, call.conversationId);
    expect(c.status).toBe(200);
    expect(c.body).toMatchObject({ channel: 'VOICE-SIP', num_turns: 1, in_progress: false });
    expect(c.body.state).toMatchObject({ agent_number: acme.number, caller_number: 'anonymous' });
    expect((await inboundStatus(call.conversationId)).body).toMatchObject({ status: 'ended', to: acme.number });
    expect((await limits(t, acme.accountId, acme.key)).body.in_progress).toBe(0);
  }, 60_000);

  it('the same over TCP', async () => {
    const before = voice.calls.length;
    expectSipp(await runCaller({ builtin: 'uac' }, { port: sipPort, service: acme.number, transport: 't1' }));
    expect(voice.calls).toHaveLength(before + 1);
    await voice.calls.at(-1)!.ended;
    expect((await inboundStatus(voice.calls.at(-1)!.conversationId)).body.status).toBe('ended');
  }, 60_000);

  it('re-INVITE: hold (sendonly, answered recvonly), resume (sendrecv); the call audio is told each time', async () => {
    const before = voice.calls.length;
    expectSipp(await runCaller({ file: 'hold.xml' }, { port: sipPort, service: acme.number }));
    const call = voice.calls[before];
    await call.ended;
    const recorded = audio.opened.find((a) => a === call.audio)!;
    expect(recorded.connects.map((c) => [c.direction, c.dtmfPayloadType])).toEqual([
      ['sendrecv', 101],
      ['sendonly', 101],
      ['sendrecv', 101],
    ]);
  }, 60_000);

  it('Parley hangs up (the voice side ends the call): a BYE to the caller, the call ended by the agent', async () => {
    const before = voice.calls.length;
    const caller = runCaller({ file: 'parley-hangs-up.xml' }, { port: sipPort, service: acme.number });
    await eventually(
      async () => voice.calls.length,
      (n) => n > before,
      20_000,
    );
    const call = voice.calls[before];
    await call.hangUp();
    expectSipp(await caller);
    const c = await conversation(acme, call.conversationId);
    expect(c.body).toMatchObject({ in_progress: false });
    expect((await inboundStatus(call.conversationId)).body.status).toBe('ended');
  }, 60_000);

  it('CANCEL while it rings: 200 to the CANCEL, 487 to the INVITE; the line is given back', async () => {
    const before = voice.calls.length;
    expectSipp(await runCaller({ file: 'cancel.xml' }, { port: sipPort, service: acme.number }));
    expect(voice.calls).toHaveLength(before);
    expect((await limits(t, acme.accountId, acme.key)).body.in_progress).toBe(0);
  }, 60_000);

  it('refusals: 486 past the account limit, 404 for a number no agent has, 480 with no deployment', async () => {
    await setLimit(t, globex.accountId, { concurrent_calls: 1 });
    const held = await inboundCall(t, { from: '+15557654321', to: globex.number, utterances: [], hang_up: false });
    expect(held.body.status).toBe('in-progress');
    expectSipp(await runCaller({ xml: refusedCallXml(486) }, { port: sipPort, service: globex.number }));
    await request(`${t.url}/admin/v1/carrier/inbound-calls/${held.body.call_sid}/hang-up`, {
      method: 'POST',
      headers: op(t),
    });
    expect((await limits(t, globex.accountId, globex.key)).body.in_progress).toBe(0);

    expectSipp(await runCaller({ xml: refusedCallXml(404) }, { port: sipPort, service: '+15559999999' }));
    await provision(t, acme.agentId, '+15550100777', 'live');
    expectSipp(await runCaller({ xml: refusedCallXml(480) }, { port: sipPort, service: '+15550100777' }));
    // digits without a + reach the same number
    expectSipp(await runCaller({ xml: refusedCallXml(480) }, { port: sipPort, service: '15550100777' }));
  }, 90_000);

  it("a DNI pool number: the call carries the reservation's attributes", async () => {
    await provision(t, acme.agentId, '+15550100101', 'dev', 'dni');
    const reserved = await request(`${t.url}/v1/conversations/dni-reservation`, {
      headers: { 'x-api-key': acme.key },
      body: { attributes: { shared_id: 'visit-sip', page: '/pricing' }, client_env: 'sandbox' },
    });
    expect(reserved.body.dni).toBe('+15550100101');
    const before = voice.calls.length;
    expectSipp(await runCaller({ builtin: 'uac' }, { port: sipPort, service: reserved.body.dni }));
    const c = await conversation(acme, voice.calls[before].conversationId);
    expect(c.body.state.dni).toEqual({ shared_id: 'visit-sip', page: '/pricing' });
  }, 60_000);

  it('the platform full (SIP_MAX_CALLS calls on this process): 503 with Retry-After, then room again', async () => {
    const before = voice.calls.length;
    const callers = [0, 1].map(() =>
      runCaller({ file: 'parley-hangs-up.xml' }, { port: sipPort, service: acme.number }),
    );
    await eventually(
      async () => voice.calls.length,
      (n) => n >= before + 2,
      20_000,
    );
    expectSipp(await runCaller({ xml: refusedCallXml(503) }, { port: sipPort, service: acme.number }));
    await Promise.all(voice.calls.slice(before).map((call) => call.hangUp()));
    for (const caller of callers) expectSipp(await caller);
    expectSipp(await runCaller({ builtin: 'uac' }, { port: sipPort, service: acme.number }));
  }, 60_000);

  it('UDP: the 200 OK is retransmitted until the ACK (a re-INVITE before it: 491); retransmitted INVITE and BYE answered again', async () => {
    const ua = await udpAgent();
    const callId = `retrans-${Date.now()}`;
    const head = (method: string, cseq: number, toTag = '') =>
      `${method} sip:${acme.number}@127.0.0.1:${sipPort} SIP/2.0\r\nVia: SIP/2.0/UDP 127.0.0.1:${ua.port};branch=z9hG4bK${method}${cseq}\r\nFrom: <sip:+15557654321@127.0.0.1>;tag=caller\r\nTo: <sip:${acme.number}@127.0.0.1>${toTag}\r\nCall-ID: ${callId}\r\nCSeq: ${cseq} ${method}\r\nContact: <sip:caller@127.0.0.1:${ua.port}>\r\n`;
    const sdp = 'v=0\r\no=- 1 1 IN IP4 127.0.0.1\r\ns=-\r\nc=IN IP4 127.0.0.1\r\nt=0 0\r\nm=audio 4000 RTP/AVP 8\r\n';
    const invite = `${head('INVITE', 1)}Content-Type: application/sdp\r\nContent-Length: ${sdp.length}\r\n\r\n${sdp}`;
    const oks = () => ua.received.filter((m) => /^SIP\/2\.0 200 OK/.test(m) && / INVITE\r\n/.test(m));
    try {
      ua.send(invite);
      // the first 200, then again at T1 and 3·T1 while no ACK comes
      await eventually(
        async () => oks().length,
        (n) => n >= 3,
        10_000,
      );
      expect(new Set(oks()).size).toBe(1);
      const toTag = /\r\nTo: [^\r]*(;tag=[^;\r]+)/.exec(oks()[0])![1];
      expect(oks()[0]).toContain('m=audio');
      ua.send(invite);
      await eventually(
        async () => oks().length,
        (n) => n >= 4,
        5_000,
      );
      // a re-INVITE before the 200 is ACKed: 491, and the 200 still waits for its own ACK
      const reinvite = (cseq: number) =>
        `${head('INVITE', cseq, toTag)}Content-Type: application/sdp\r\nContent-Length: ${sdp.length}\r\n\r\n${sdp}`;
      ua.send(reinvite(2));
      await eventually(
        async () => ua.received.filter((m) => /^SIP\/2\.0 491 /.test(m)).length,
        (n) => n >= 1,
        5_000,
      );
      ua.send(`${head('ACK', 2, toTag)}Content-Length: 0\r\n\r\n`);
      ua.send(`${head('ACK', 1, toTag)}Content-Length: 0\r\n\r\n`);
      await new Promise((resolve) => setTimeout(resolve, 2500));
      const afterAck = oks().length;
      await new Promise((resolve) => setTimeout(resolve, 2500));
      expect(oks().length).toBe(afterAck);
      // confirmed: a re-INVITE now is answered 200
      ua.send(reinvite(3));
      await eventually(
        async () => ua.received.filter((m) => /^SIP\/2\.0 200 OK/.test(m) && /CSeq: 3 INVITE/.test(m)).length,
        (n) => n >= 1,
        5_000,
      );
      ua.send(`${head('ACK', 3, toTag)}Content-Length: 0\r\n\r\n`);
      const bye = `${head('BYE', 4, toTag)}Content-Length: 0\r\n\r\n`;
      const byeOks = () => ua.received.filter((m) => /^SIP\/2\.0 200 OK/.test(m) && / BYE\r\n/.test(m));
      ua.send(bye);
      await eventually(
        async () => byeOks().length,
        (n) => n >= 1,
        5_000,
      );
      ua.send(bye);
      await eventually(
        async () => byeOks().length,
        (n) => n >= 2,
        5_000,
      );
    } finally {
      ua.close();
    }
  }, 60_000);

  it('OPTIONS is answered 200 with what Parley allows', async () => {
    expectSipp(await runCaller({ file: 'options.xml' }, { port: sipPort, service: acme.number }));
  }, 60_000);

  it('outbound to a trunk that challenges: 401, ACK, INVITE again with the digest; answered, audio connected', async () => {
    const before = audio.opened.length;
    const callee = await runCallee('../../sip/sipp/digest-callee.xml', trunkPort);
    try {
      const r = await placeCall(t, acme.key, {
        to_number: '+15551234567',
        from_number: acme.number,
        encryption: 'UDP/RTP',
      });
      expect(r.body).toEqual({ call_sid: expect.any(String) });
      const status = await eventually(
        () => callStatus(t, acme.key, r.body.call_sid),
        (x) => ['success', 'failure'].includes(x.body.status),
        20_000,
      );
      expectSipp(await callee.exited);
      expect(status.body).toMatchObject({ status: 'success', reason: null });
    } finally {
      callee.kill();
    }
    const outbound = audio.opened[before];
    expect(outbound.connects).toEqual([
      expect.objectContaining({ codec: 'PCMA', payloadType: 8, dtmfPayloadType: 101, direction: 'sendrecv' }),
    ]);
    expect(voice.calls.at(-1)).toMatchObject({ direction: 'outbound' });
    // the trunk's password is configuration only: no event carries it
    const events = await t.app.get<EventStore>(EVENT_STORE).readAll({ maxCount: 100_000 });
    expect(events.length).toBeGreaterThan(0);
    expect(JSON.stringify(events.map((e) => [e.type, e.data, e.metadata]))).not.toContain('s3cret-pass');
  }, 60_000);

  /** A bare UDP user agent: sends what the test writes, keeps every datagram it gets. */
  async function udpAgent() {
    const socket = dgram.createSocket('udp4');
    const received: string[] = [];
    socket.on('message', (m) => received.push(m.toString()));
    await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', resolve));
    return {
      port: socket.address().port,
      received,
      send: (text: string) => socket.send(text, sipPort, '127.0.0.1'),
      close: () => socket.close(),
    };
  }

  describe('hostile input', () => {
    async function udpExchange(payloads: Array<string | Buffer>, waitMs = 700): Promise<string[]> {
      const socket = dgram.createSocket('udp4');
      const got: string[] = [];
      socket.on('message', (m) => got.push(m.toString()));
      await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', resolve));
      for (const p of payloads) socket.send(p, sipPort, '127.0.0.1');
      await new Promise((resolve) => setTimeout(resolve, waitMs));
      socket.close();
      return got;
    }
    const options = (extra = '', callId = `opt-${Math.random()}`) =>
      `OPTIONS sip:x@127.0.0.1 SIP/2.0\r\nVia: SIP/2.0/UDP 127.0.0.1:9;branch=z9hG4bK${callId}\r\nFrom: <sip:a@b>;tag=1\r\nTo: <sip:x@127.0.0.1>\r\nCall-ID: ${callId}\r\nCSeq: 1 OPTIONS\r\n${extra}Content-Length: 0\r\n\r\n`;

    it('garbage is dropped, a request missing headers gets 400, an oversized one 513; the server still answers', async () => {
      const answers = await udpExchange([
        Buffer.from([0, 1, 2, 3, 255, 254]),
        '\r\n\r\n',
        'INVITE sip:x SIP/2.0\r\nVia: SIP/2.0/UDP 127.0.0.1:9;branch=z9hG4bKbad\r\n\r\n',
        'INVITE sip:+15550100001@127.0.0.1 SIP/2.0\r\nVia: SIP/2.0/UDP 127.0.0.1:9;branch=z9hG4bKbad2\r\nFrom: <sip:a@b>;tag=1\r\nTo: <sip:b@c>\r\nCall-ID: x\r\nCSeq: 1 BYE\r\n\r\n',
        options(`X-Padding: ${'a'.repeat(20_000)}\r\n`),
      ]);
      expect(answers.map((a) => a.split('\r\n')[0]).sort()).toEqual([
        'SIP/2.0 400 Bad CSeq',
        'SIP/2.0 400 Missing from header',
        'SIP/2.0 513 Message Too Large',
      ]);
      const ok = await udpExchange([options()]);
      expect(ok[0]).toMatch(/^SIP\/2\.0 200 OK/);
    }, 30_000);

    it('an INVITE whose SDP has no codec in common: 488; a broken SDP: 400', async () => {
      const invite = (callId: string, sdp: string) =>
        `INVITE sip:${acme.number}@127.0.0.1 SIP/2.0\r\nVia: SIP/2.0/UDP 127.0.0.1:9;branch=z9hG4bK${callId}\r\nFrom: <sip:+15557654321@b>;tag=1\r\nTo: <sip:${acme.number}@127.0.0.1>\r\nCall-ID: ${callId}\r\nCSeq: 1 INVITE\r\nContent-Type: application/sdp\r\nContent-Length: ${Buffer.byteLength(sdp)}\r\n\r\n${sdp}`;
      const answers = await udpExchange([
        invite('opus-only', 'v=0\r\nc=IN IP4 127.0.0.1\r\nm=audio 4000 RTP/AVP 96\r\na=rtpmap:96 opus/48000/2\r\n'),
        invite('broken-sdp', 'v=0\r\nm=audio nope\r\n'),
      ]);
      const finals = answers.map((a) => a.split('\r\n')[0]).filter((l) => !/ 100 /.test(l));
      expect(new Set(finals)).toEqual(new Set(['SIP/2.0 488 Not Acceptable Here', 'SIP/2.0 400 Bad SDP']));
    }, 30_000);

    it('a TCP stream that cannot be framed is closed; one that never ends a header block is cut at the limit', async () => {
      const closedAfter = (data: string) =>
        new Promise<boolean>((resolve) => {
          const socket = net.connect(sipPort, '127.0.0.1', () => socket.write(data));
          socket.on('close', () => resolve(true));
          socket.on('error', () => undefined);
          setTimeout(() => {
            socket.destroy();
            resolve(false);
          }, 3000);
        });
      expect(await closedAfter('OPTIONS sip:x SIP/2.0\r\nCall-ID: a\r\n\r\n')).toBe(true);
      expect(await closedAfter(`OPTIONS sip:x SIP/2.0\r\nX: ${'a'.repeat(40_000)}`)).toBe(true);
      expect((await udpExchange([options()]))[0]).toMatch(/^SIP\/2\.0 200 OK/);
    }, 30_000);

    it('a flood from one address is cut to its rate (bursts of twice SIP_RATE_PER_SOURCE); the server lives on', async () => {
      const answers = await udpExchange(
        Array.from({ length: 400 }, () => options()),
        1500,
      );
      expect(answers.length).toBeGreaterThan(50);
      expect(answers.length).toBeLessThan(250);
      // the bucket refills (one token every 1/50 s)
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect((await udpExchange([options()]))[0]).toMatch(/^SIP\/2\.0 200 OK/);
    }, 30_000);
  });
});
