import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { SipServer } from '../../src/sip/sip-server';
import { UtteranceDetector } from '../../src/voice/turn-taking/utterance-detector';
import { provision, op } from '../calls/calls-fixture';
import { AgentsClient, createAccount, expectOk, oneYearAhead } from '../helpers/agents-fixture';
import { request, startTestApp, type TestApp } from '../helpers/test-app';
import { patient } from '../support/patience';
import { TestSipUa } from './test-sip-ua';
import { describeSpeech, embeddedAsr, embeddedTts, until } from './voice-fixture';

const GREETING = 'Hello, how can I help?';
const FIRST = 'We are open from nine to five on weekdays.';
const SECOND = 'We are closed on public holidays.';
const HEARD = [GREETING, FIRST, SECOND, 'Our office is in the city centre.', 'Are you still there?'];
const NUMBER = '+15550300009';

/**
 * An OpenAI-compatible model (the hosted one cannot exist here) that streams its answer as
 * server-sent events and writes its second sentence only when the test releases it (or, bounded,
 * after a long wait): the caller can hear the first sentence only if Parley speaks while it writes.
 */
function gatedModel() {
  const state = { finishedAt: 0, release: () => {} };
  const server = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      const send = (content: string) =>
        res.write(`data: ${JSON.stringify({ choices: [{ index: 0, delta: { content } }] })}\n\n`);
      send('We are open from nine ');
      send('to five on weekdays. ');
      let released = false;
      const rest = () => {
        if (released) return;
        released = true;
        send(SECOND);
        state.finishedAt = Date.now();
        res.end('data: [DONE]\n\n');
      };
      state.release = rest;
      setTimeout(rest, patient(30_000)).unref();
    });
  });
  return {
    state,
    start: () =>
      new Promise<string>((resolve) =>
        server.listen(0, '127.0.0.1', () => resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}`)),
      ),
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/**
 * Voice speaks as the model writes (issue 35), no mocks inside Parley: a SIP caller on 127.0.0.1
 * asks (espeak-ng) a question whose answer a streaming model writes in two sentences with a pause
 * between them; the caller hears (pocketsphinx) the first sentence before the model has written the
 * second, then the second; the recorded turn holds the whole answer and its speech stages.
 */
describeSpeech('a voice call speaks the model’s answer sentence by sentence as it is written', () => {
  let t: TestApp;
  let sipPort: number;
  let accountId: string;
  let agentId: string;
  let key: string;
  const saved = { ...process.env };
  const model = gatedModel();
  const tts = embeddedTts();
  const asr = embeddedAsr();
  let ua: TestSipUa | null = null;

  beforeAll(async () => {
    const modelUrl = await model.start();
    // the voice configuration is read from the process environment (VoiceModule)
    Object.assign(process.env, {
      RTP_PORT_MIN: '38002',
      RTP_PORT_MAX: '38500',
      VOICE_END_OF_UTTERANCE_MS: '500',
      VOICE_SILENCE_PROMPT_MS: String(patient(20_000)),
      VOICE_SILENCE_PROMPTS: '1',
    });
    t = await startTestApp({
      PARLEY_TEST_CLOCK: '1',
      SIP_LISTEN_PORT: '0',
      LLM_BASE_URL: modelUrl,
      LLM_MODEL: 'voice-model',
      LLM_TIMEOUT_MS: String(Math.min(300_000, patient(60_000))),
    });
    sipPort = t.app.get(SipServer).address()!.port;
    const account = await createAccount(t, 'Voice Co');
    accountId = account.accountId;
    const agents = new AgentsClient(t, account);
    ({ agentId } = await agents.createAgent('Voice line', GREETING));
    await agents.shipChange(agentId, 'first', (branchId) =>
      agents.addTopic(agentId, branchId, {
        name: 'Opening hours',
        content: FIRST,
        queries: ['What are your opening hours?'],
      }),
    );
    await provision(t, agentId, NUMBER, 'dev');
    expectOk(
      await request(`${t.url}/v1/accounts/${accountId}/agents/${agentId}/data-access`, {
        method: 'PUT',
        body: { response_metrics: [], show_transcripts: true },
        headers: { 'x-api-key': account.key },
      }),
      200,
    );
    const r = await request(`${t.url}/admin/v1/accounts/${accountId}/api-keys`, {
      headers: op(t),
      body: { name: 'voice', agents: 'all', permissions: ['conversations'], expiresAt: oneYearAhead() },
    });
    expectOk(r, 201);
    key = r.body.key;
  }, patient(60_000));
  afterAll(async () => {
    model.state.release();
    await ua?.close();
    await t?.close();
    await model.stop();
    process.env = saved;
  });

  it(
    'the caller hears the first sentence before the model wrote the second; the turn is recorded whole',
    async () => {
      ua = await TestSipUa.open({ min: 38502, max: 39000 });
      const heard: Int16Array[] = [];
      const speechStarts: number[] = [];
      const detector = new UtteranceDetector({ endSilenceMs: 700 });
      ua.audio.onAudio((frame) => {
        for (const e of detector.push(frame)) {
          if (e.type === 'speech-start') speechStarts.push(Date.now());
          if (e.type === 'utterance') heard.push(e.pcm);
        }
      });
      const question = await tts.synthesize('What are your opening hours?');
      expect(await ua.call(sipPort, NUMBER, '+15557770009')).toBe(200);
      await until('the greeting', () => heard.length >= 1, patient(20_000));

      await ua.audio.play(question);
      await until('the first sentence', () => heard.length >= 2, patient(30_000));
      expect(model.state.finishedAt).toBe(0); // the model is still writing
      expect(await asr.recognize(heard[1], { phrases: HEARD })).toContain('nine to five');
      model.state.release();
      await until('the second sentence', () => heard.length >= 3, patient(30_000));
      expect(await asr.recognize(heard[2], { phrases: HEARD })).toContain('public holidays');
      // the answer's first audio reached the caller before the model finished writing
      expect(speechStarts[1]).toBeLessThan(model.state.finishedAt);
      await ua.hangUp();

      const base = `${t.url}/v3/${accountId}/${agentId}/conversations`;
      const headers = { 'x-api-key': key };
      const id = await until(
        'the ended conversation',
        async () => {
          const r = await request(`${base}?client_env=sandbox`, { headers });
          const c = r.body?.conversations?.find((x: { from_number: string }) => x.from_number === '+15557770009');
          return c && !c.in_progress && c.num_turns === 2 ? (c.id as string) : null;
        },
        patient(15_000),
      );
      const c = (await request(`${base}/${id}?include_latency=true`, { headers })).body;
      const turn = c.turns[1];
      expect(turn.agent_response).toBe(`${FIRST} ${SECOND}`);
      const stages = turn.latency.stages;
      for (const stage of ['asr', 'tts', 'first_audio', 'first_token']) expect(stages[stage]).toBeGreaterThan(0);
      // first audio came while the model was held: well before generation (which includes the hold) ended
      expect(stages.first_audio).toBeLessThan(stages.asr + stages.retrieval + stages.generation);
    },
    patient(90_000),
  );
});
