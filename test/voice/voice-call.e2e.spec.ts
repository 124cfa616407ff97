import { execFileSync } from 'node:child_process';
import { SipServer } from '../../src/sip/sip-server';
import { EspeakSynthesizer } from '../../src/voice/speech/espeak-synthesizer';
import { PocketsphinxRecognizer } from '../../src/voice/speech/pocketsphinx-recognizer';
import { UtteranceDetector } from '../../src/voice/turn-taking/utterance-detector';
import { provision, op } from '../calls/calls-fixture';
import { AgentsClient, createAccount, expectOk, oneYearAhead } from '../helpers/agents-fixture';
import { request, startTestApp, type TestApp } from '../helpers/test-app';
import { patient } from '../support/patience';
import { TestSipUa } from './test-sip-ua';

const installed = (bin: string) => {
  try {
    execFileSync('sh', ['-c', `command -v ${bin}`]);
    return true;
  } catch {
    return false;
  }
};
const speech = installed('pocketsphinx_continuous') && installed('espeak-ng');
const describeSpeech = speech ? describe : describe.skip;

const GREETING = 'Hello, how can I help?';
const HOURS = 'We are open from nine to five on weekdays.';
const OFFICE = 'Our office is in the city centre.';
/** what the caller's side may hear: the right answer among look-alikes, so recognising it means something */
const HEARD = [GREETING, HOURS, OFFICE, 'We are closed on public holidays.', 'Are you still there?'];
const NUMBER = '+15550300003';

async function until<T>(
  what: string,
  get: () => Promise<T | null | undefined | false> | T | null | undefined | false,
  ms: number,
): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await get();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

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
  const tts = new EspeakSynthesizer('espeak-ng', 'en-us');
  const asr = new PocketsphinxRecognizer('pocketsphinx_continuous', '/usr/share/pocketsphinx/model/en-us');

  beforeAll(async () => {
    // the voice configuration is read from the process environment (VoiceModule)
    Object.assign(process.env, {
      RTP_PORT_MIN: '35002',
      RTP_PORT_MAX: '36000',
      VOICE_END_OF_UTTERANCE_MS: '500',
      VOICE_SILENCE_PROMPT_MS: '60000',
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

  it(
    'hears the question and answers it from the right topic, in audio; the turn records its speech stages',
    async () => {
      const ua = await TestSipUa.open({ min: 36002, max: 37000 });
      try {
        const heard: Int16Array[] = [];
        const detector = new UtteranceDetector({ endSilenceMs: 700 });
        ua.audio.onAudio((frame) => {
          for (const e of detector.push(frame)) if (e.type === 'utterance') heard.push(e.pcm);
        });
        expect(await ua.call(sipPort, NUMBER)).toBe(200);

        await until('the greeting', () => heard.length >= 1, patient(20_000));
        expect(await asr.recognize(heard[0], { phrases: HEARD })).toBe('hello how can i help');

        await ua.audio.play(await tts.synthesize('What are your opening hours?'));
        await until('the answer', () => heard.length >= 2, patient(30_000));
        const answer = await asr.recognize(heard[1], { phrases: HEARD });
        expect(answer).toContain('nine to five');

        await ua.hangUp();
        const base = `${t.url}/v3/${accountId}/${agentId}/conversations`;
        const headers = { 'x-api-key': key };
        const id = await until(
          'the conversation, ended',
          async () => {
            const r = await request(`${base}?client_env=sandbox`, { headers });
            const c = r.status === 200 ? r.body.conversations[0] : null;
            return c && c.in_progress === false && c.num_turns === 2 ? (c.id as string) : null;
          },
          patient(15_000),
        );
        const { body: list } = await request(`${base}/${id}?include_latency=true`, { headers });
        expect(list).toMatchObject({ channel: 'VOICE-SIP' });
        const [greeting, turn] = list.turns;
        expect(greeting.agent_response).toBe(GREETING);
        expect(turn.user_input).toBe('what are your opening hours');
        expect(turn.agent_response).toBe(HOURS);
        expect(turn.barge_in).toBe(false);
        expect(turn).not.toHaveProperty('dtmf');
        const stages = turn.latency.stages;
        for (const stage of ['asr', 'tts', 'first_audio', 'retrieval']) expect(stages[stage]).toBeGreaterThan(0);
        expect(stages.first_audio).toBeLessThan(patient(5));
      } finally {
        await ua.close();
      }
    },
    patient(60_000),
  );
});
