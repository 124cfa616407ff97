import { SipServer } from '../../src/sip/sip-server';
import { UtteranceDetector } from '../../src/voice/turn-taking/utterance-detector';
import { provision, op } from '../calls/calls-fixture';
import { AgentsClient, createAccount, expectOk, oneYearAhead } from '../helpers/agents-fixture';
import { request, startTestApp, type TestApp } from '../helpers/test-app';
import { patient } from '../support/patience';
import { TestSipUa } from './test-sip-ua';
import { describeSpeech, embeddedAsr, embeddedTts, until } from './voice-fixture';

const GREETING = 'Hello, how can I help?';
const HOURS = 'We are open from nine to five on weekdays.';
const OFFICE = 'Our office is in the city centre.';
/** what the caller's side may hear: the right answer among look-alikes, so recognising it means something */
const HEARD = [GREETING, HOURS, OFFICE, 'We are closed on public holidays.', 'Are you still there?'];
const NUMBER = '+15550300003';

/**
 * Issue 36's proof, no mocks inside Parley: a SIP caller on 127.0.0.1 calls a provisioned number,
 * says (espeak-ng) "What are your opening hours?", and hears (pocketsphinx) the opening-hours
 * topic's answer over RTP; the Conversations API holds the turn with its speech stages.
 */
describeSpeech('a voice call over SIP and RTP, end to end', () => {
  let t: TestApp;
  let sipPort: number;
  let accountId: string;
  let agentId: string;
  let key: string;
  const saved = { ...process.env };
  const tts = embeddedTts();
  const asr = embeddedAsr();

  beforeAll(async () => {
    // the voice configuration is read from the process environment (VoiceModule)
    Object.assign(process.env, {
      RTP_PORT_MIN: '35002',
      RTP_PORT_MAX: '36000',
      VOICE_END_OF_UTTERANCE_MS: '500',
      // one prompt after 5 s of silence, then a hang-up: long enough for the other tests' callers to speak
      VOICE_SILENCE_PROMPT_MS: '5000',
      VOICE_SILENCE_PROMPTS: '1',
    });
    t = await startTestApp({ PARLEY_TEST_CLOCK: '1', SIP_LISTEN_PORT: '0' });
    sipPort = t.app.get(SipServer).address()!.port;
    const account = await createAccount(t, 'Voice Co');
    accountId = account.accountId;
    const agents = new AgentsClient(t, account);
    ({ agentId } = await agents.createAgent('Voice line', GREETING));
    await agents.shipChange(agentId, 'first', async (branchId) => {
      await agents.addTopic(agentId, branchId, {
        name: 'Opening hours',
        content: HOURS,
        queries: ['What are your opening hours?'],
      });
      await agents.addTopic(agentId, branchId, { name: 'Office', content: OFFICE, queries: ['Where is your office?'] });
    });
    await provision(t, agentId, NUMBER, 'dev');
    const access = await request(`${t.url}/v1/accounts/${accountId}/agents/${agentId}/data-access`, {
      method: 'PUT',
      body: { response_metrics: [], show_transcripts: true },
      headers: { 'x-api-key': account.key },
    });
    expectOk(access, 200);
    const r = await request(`${t.url}/admin/v1/accounts/${accountId}/api-keys`, {
      headers: op(t),
      body: { name: 'voice', agents: 'all', permissions: ['conversations'], expiresAt: oneYearAhead() },
    });
    expectOk(r, 201);
    key = r.body.key;
  }, patient(60_000));
  afterAll(async () => {
    await t?.close();
    process.env = saved;
  });

  const headers = () => ({ 'x-api-key': key });
  const base = () => `${t.url}/v3/${accountId}/${agentId}/conversations`;
  const uas: TestSipUa[] = [];
  afterEach(async () => {
    await Promise.all(uas.splice(0).map((ua) => ua.close()));
  });

  /** a caller (its own number, to find its conversation) who hears Parley's utterances */
  async function dial(from: string, { srtp = false } = {}) {
    const ua = await TestSipUa.open({ min: 36002, max: 37000 });
    uas.push(ua);
    const heard: Int16Array[] = [];
    const detector = new UtteranceDetector({ endSilenceMs: 700 });
    ua.audio.onAudio((frame) => {
      for (const e of detector.push(frame)) if (e.type === 'utterance') heard.push(e.pcm);
    });
    expect(await ua.call(sipPort, NUMBER, from, { srtp })).toBe(200);
    await until('the greeting', () => heard.length >= 1, patient(20_000));
    return { ua, heard };
  }

  /** the caller's conversation once it matches, with its turns' latency */
  async function conversationOf(from: string, ready: (c: { in_progress: boolean; num_turns: number }) => boolean) {
    const id = await until(
      `the conversation of ${from}`,
      async () => {
        const r = await request(`${base()}?client_env=sandbox`, { headers: headers() });
        const c =
          r.status === 200 ? r.body.conversations.find((x: { from_number: string }) => x.from_number === from) : null;
        return c && ready(c) ? (c.id as string) : null;
      },
      patient(15_000),
    );
    const r = await request(`${base()}/${id}?include_latency=true`, { headers: headers() });
    expect(r.status).toBe(200);
    return r.body;
  }

  it(
    'hears the question and answers it from the right topic, in audio; the turn records its speech stages',
    async () => {
      const question = await tts.synthesize('What are your opening hours?');
      const { ua, heard } = await dial('+15557770001');
      expect(await asr.recognize(heard[0], { phrases: HEARD })).toBe('hello how can i help');

      await ua.audio.play(question);
      // On a loaded machine the agent may ask "are you still there?" before the question reaches
      // it: the answer is then a later utterance. Each one after the greeting is heard once.
      let recognized = 1;
      const answer = await until(
        'the answer',
        async () => {
          while (recognized < heard.length) {
            const said = await asr.recognize(heard[recognized++], { phrases: HEARD });
            if (said.includes('nine to five')) return said;
          }
          return null;
        },
        patient(30_000),
      );
      expect(answer).toContain('nine to five');

      await ua.hangUp();
      const c = await conversationOf('+15557770001', (x) => !x.in_progress && x.num_turns === 2);
      expect(c).toMatchObject({ channel: 'VOICE-SIP', in_progress: false });
      const [greeting, turn] = c.turns;
      expect(greeting.agent_response).toBe(GREETING);
      expect(turn.user_input).toBe('what are your opening hours');
      expect(turn.agent_response).toBe(HOURS);
      expect(turn.barge_in).toBe(false);
      expect(turn).not.toHaveProperty('dtmf');
      const stages = turn.latency.stages;
      for (const stage of ['asr', 'tts', 'first_audio', 'retrieval']) expect(stages[stage]).toBeGreaterThan(0);
      expect(stages.first_audio).toBeLessThan(patient(5));
    },
    patient(60_000),
  );

  it(
    'an RTP/SAVP caller (SDES): answered in RTP/SAVP with a key of its own, the greeting heard through SRTP',
    async () => {
      const { ua, heard } = await dial('+15557770004', { srtp: true });
      const ok = ua.received.find((m) => m.kind === 'response' && m.status === 200)!;
      expect(ok.body).toMatch(/m=audio \d+ RTP\/SAVP 0 101\r\n/);
      expect(ok.body).toMatch(/a=crypto:1 AES_CM_128_HMAC_SHA1_80 inline:[A-Za-z0-9+/]{40}\r\n/);
      expect(await asr.recognize(heard[0], { phrases: HEARD })).toBe('hello how can i help');
      expect(ua.audio.stats.unauthenticated).toBe(0);
      await ua.hangUp();
    },
    patient(60_000),
  );

  it(
    'keypad digits are a user turn recorded with `dtmf`',
    async () => {
      const { ua } = await dial('+15557770002');
      await ua.audio.sendDigits('12#');
      // the turn is recorded once its answer was said, while the call goes on
      const c = await conversationOf('+15557770002', (x) => x.num_turns === 2);
      const turn = c.turns[1];
      // `dtmf` is what was keyed; the input the agent read is the digits without the closing '#'
      expect(turn).toMatchObject({ user_input: '12', dtmf: '12#', barge_in: false });
      expect(turn.latency.stages.asr).toBe(0);
      await ua.hangUp();
    },
    patient(60_000),
  );

  it(
    'a caller who says nothing is prompted, then hung up on (Parley sends the BYE)',
    async () => {
      const { ua, heard } = await dial('+15557770003');
      const started = Date.now();
      await Promise.race([
        ua.hungUpByParley,
        new Promise((_, reject) => setTimeout(() => reject(new Error('no BYE from Parley')), patient(30_000)).unref()),
      ]);
      // 5 s of silence, the prompt, 5 s more
      expect(Date.now() - started).toBeGreaterThan(8000);
      expect(await asr.recognize(heard[1], { phrases: HEARD })).toBe('are you still there');
      const c = await conversationOf('+15557770003', (x) => !x.in_progress);
      expect(c.num_turns).toBe(1);
    },
    patient(60_000),
  );
});
