import { RtpCallAudioFactory } from '../../src/voice/media/rtp-call-audio-factory';
import { UtteranceDetector } from '../../src/voice/turn-taking/utterance-detector';
import { loadVoiceConfig } from '../../src/voice/voice-config';
import { AgentsClient, createAccount, expectOk } from '../helpers/agents-fixture';
import { request, startTestApp, type TestApp } from '../helpers/test-app';
import { issueKey, placeCall, provisionNumber, statusBecomes } from '../outbound-calls/outbound-calls-fixture';
import { TestSipCallee } from './test-sip-callee';
import { describeSpeech, embeddedTts, until } from './voice-fixture';

const GREETING = 'Hello, how can I help?';
/** long enough (several sentences, many seconds of audio) to be cut off while it plays */
const HOURS =
  'We are open from nine to five on weekdays. On Saturdays we open at ten and close at four. ' +
  'On Sundays and on public holidays the office stays closed all day. ' +
  'During the summer months we close one hour earlier on Fridays.';
const OFFICE = 'Our office is in the city centre.';
/** every wait of this test is bounded, together well inside the 60 s it may take */
const WAIT_MS = 20_000;

/**
 * The outbound twin of the inbound "hang-up mid-answer" proof, real parts only: Parley dials the
 * test callee over UDP/RTP, the callee asks (espeak-ng) for the opening hours and hangs up (BYE)
 * once the answer starts playing. The call's end waits for the voice side to record the turn in
 * hand, so the conversation keeps the question, its answer marked interrupted.
 */
describeSpeech('an outbound call whose callee hangs up mid-answer', () => {
  let t: TestApp;
  let callee: TestSipCallee;
  let accountId: string;
  let agentId: string;
  let token: string;
  let question: Int16Array;
  const saved = { ...process.env };

  beforeAll(async () => {
    // the voice configuration is read from the process environment (VoiceModule)
    Object.assign(process.env, {
      VOICE_END_OF_UTTERANCE_MS: '500',
      // no silence prompt gets in the way of this callee
      VOICE_SILENCE_PROMPT_MS: '60000',
    });
    callee = await TestSipCallee.open({ min: 39502, max: 40000 });
    t = await startTestApp(
      {
        PARLEY_TEST_CLOCK: '1',
        OUTBOUND_CARRIER: 'sip',
        SIP_TRUNK: `127.0.0.1:${callee.port}`,
        OUTBOUND_RING_TIMEOUT_S: '10',
      },
      undefined,
      [],
      { audio: new RtpCallAudioFactory(loadVoiceConfig({ RTP_PORT_MIN: '39002', RTP_PORT_MAX: '39500' })) },
    );
    const account = await createAccount(t, 'Hours Co');
    accountId = account.accountId;
    const agents = new AgentsClient(t, account);
    ({ agentId } = await agents.createAgent('Hours caller', GREETING));
    // a merge publishes to sandbox, which the `dev` number answers from (contract §11)
    await agents.shipChange(agentId, 'first', async (branchId) => {
      await agents.addTopic(agentId, branchId, {
        name: 'Opening hours',
        content: HOURS,
        queries: ['What are your opening hours?'],
      });
      await agents.addTopic(agentId, branchId, { name: 'Office', content: OFFICE, queries: ['Where is your office?'] });
    });
    await provisionNumber(t, agentId, '+15550500001', 'dev');
    // the turns' text is served only with transcript access
    const access = await request(`${t.url}/v1/accounts/${accountId}/agents/${agentId}/data-access`, {
      method: 'PUT',
      body: { response_metrics: [], show_transcripts: true },
      headers: { 'x-api-key': account.key },
    });
    expectOk(access, 200);
    token = await issueKey(t, accountId, ['outbound_calling', 'conversations']);
    question = await embeddedTts().synthesize('What are your opening hours?');
  }, 60_000);
  afterAll(async () => {
    await callee?.close();
    await t?.close();
    process.env = saved;
  });

  it('keeps the turn in hand: the question, its answer marked interrupted', async () => {
    const answered = callee.answered(WAIT_MS);
    const r = await placeCall(t, token, { to_number: '+15551234567', encryption: 'UDP/RTP' });
    expect(r.status).toBe(200);
    const sid: string = r.body.call_sid;
    const call = await answered;
    expect(call.offer.media[0].proto).toBe('RTP/AVP');

    const heard: Int16Array[] = [];
    let speaking = false;
    const detector = new UtteranceDetector({ endSilenceMs: 700 });
    call.audio.onAudio((frame) => {
      for (const e of detector.push(frame)) {
        if (e.type === 'speech-start') speaking = true;
        if (e.type === 'utterance') {
          heard.push(e.pcm);
          speaking = false;
        }
      }
    });
    await until('the greeting', () => heard.length >= 1, WAIT_MS);
    await call.audio.play(question);
    await until('the answer starting', () => speaking && heard.length === 1, WAIT_MS);
    callee.hangUp();

    expect(await statusBecomes(t, token, sid, 'success', WAIT_MS / 5)).toMatchObject({ status: 'success' });
    const path = `${t.url}/v3/${accountId}/${agentId}/conversations/${encodeURIComponent(sid)}`;
    const c = await until(
      'the conversation ended',
      async () => {
        const x = await request(path, { headers: { 'x-api-key': token } });
        return x.status === 200 && x.body.in_progress === false ? x.body : null;
      },
      WAIT_MS,
    );
    expect(c).toMatchObject({ id: sid, channel: 'VOICE-SIP', num_turns: 2 });
    expect(c.turns[0].agent_response).toBe(GREETING);
    expect(c.turns[1]).toMatchObject({
      user_input: 'what are your opening hours',
      agent_response: HOURS,
      interrupted: true,
      barge_in: false,
    });
  }, 60_000);
});
