import fs from 'node:fs';
import path from 'node:path';
import { SipServer } from '../../src/sip/sip-server';
import { UtteranceDetector } from '../../src/voice/turn-taking/utterance-detector';
import { provision, op } from '../calls/calls-fixture';
import { AgentsClient, createAccount, expectOk, oneYearAhead, type AgentsAccount } from '../helpers/agents-fixture';
import { expectEnvelope, request, startTestApp, type TestApp } from '../helpers/test-app';
import { patient } from '../support/patience';
import { TestSipUa } from './test-sip-ua';
import { describeSpeech, embeddedAsr, embeddedTts, until } from './voice-fixture';

const GREETING = 'Hello, how can I help?';
/** long enough (several sentences, many seconds of audio) to be cut off while it plays */
const HOURS =
  'We are open from nine to five on weekdays. On Saturdays we open at ten and close at four. ' +
  'On Sundays and on public holidays the office stays closed all day. ' +
  'During the summer months we close one hour earlier on Fridays.';
const OFFICE = 'Our office is in the city centre.';
const RECORDED = '+15550400001';
const PLAIN = '+15550400002';
/** the phrases either side may say: recognition picks the closest, so hearing the right one means something */
const PHRASES = ['What are your opening hours?', 'Where is your office?', 'Hello, how can I help?'];

/** how many of `expected`'s words `heard` holds in the same order (their longest common run of words) */
function wordsInOrder(heard: string, expected: string): number {
  const a = heard.split(/\s+/).filter(Boolean);
  const b = expected.split(/\s+/).filter(Boolean);
  let row = new Array<number>(b.length + 1).fill(0);
  for (const word of a) {
    const next = [0];
    for (let j = 1; j <= b.length; j++) next[j] = word === b[j - 1] ? row[j - 1] + 1 : Math.max(row[j], next[j - 1]);
    row = next;
  }
  return row[b.length];
}

const rms = (frame: Int16Array) => Math.sqrt(frame.reduce((sum, s) => sum + s * s, 0) / Math.max(1, frame.length));

/** The two channels of an 8 kHz 16-bit stereo PCM WAV, checking its header says so. */
function channelsOf(wav: Buffer): { caller: Int16Array; agent: Int16Array } {
  expect(wav.toString('ascii', 0, 4)).toBe('RIFF');
  expect(wav.toString('ascii', 8, 16)).toBe('WAVEfmt ');
  expect(wav.readUInt16LE(20)).toBe(1); // PCM
  expect(wav.readUInt16LE(22)).toBe(2); // stereo
  expect(wav.readUInt32LE(24)).toBe(8000);
  expect(wav.readUInt16LE(34)).toBe(16);
  const bytes = wav.readUInt32LE(40);
  expect(bytes).toBe(wav.length - 44);
  const frames = bytes / 4;
  const caller = new Int16Array(frames);
  const agent = new Int16Array(frames);
  for (let i = 0; i < frames; i++) {
    caller[i] = wav.readInt16LE(44 + i * 4);
    agent[i] = wav.readInt16LE(44 + i * 4 + 2);
  }
  return { caller, agent };
}

/**
 * Issue 36's remaining voice items over a real SIP call on 127.0.0.1: call recording (a per-agent
 * setting, sealed at rest, served with the conversation, deleted after retention on the platform
 * clock), barge-in heard as silence on the caller's side, the hold limit, and the turn kept when
 * the caller hangs up while the answer plays.
 */
describeSpeech('voice calls: recording, barge-in, hold limit, hang-up mid-answer', () => {
  let t: TestApp;
  let sipPort: number;
  let account: AgentsAccount;
  let recordedAgent: string;
  let plainAgent: string;
  let key: string;
  const saved = { ...process.env };
  const tts = embeddedTts();
  const asr = embeddedAsr();
  let question: Int16Array;

  beforeAll(async () => {
    Object.assign(process.env, {
      RTP_PORT_MIN: '37002',
      RTP_PORT_MAX: '38000',
      VOICE_END_OF_UTTERANCE_MS: '500',
      // no silence prompt gets in the way of these callers
      VOICE_SILENCE_PROMPT_MS: '60000',
      VOICE_RECORDING_RETENTION_DAYS: '30',
    });
    t = await startTestApp({ PARLEY_TEST_CLOCK: '1', SIP_LISTEN_PORT: '0', SIP_HOLD_LIMIT_S: '2' });
    sipPort = t.app.get(SipServer).address()!.port;
    account = await createAccount(t, 'Recorded Co');
    const agents = new AgentsClient(t, account);
    const topics = async (agentId: string, branchId: string) => {
      await agents.addTopic(agentId, branchId, {
        name: 'Opening hours',
        content: HOURS,
        queries: ['What are your opening hours?'],
      });
      await agents.addTopic(agentId, branchId, { name: 'Office', content: OFFICE, queries: ['Where is your office?'] });
    };
    ({ agentId: recordedAgent } = await agents.createAgent('Recorded line', GREETING));
    await agents.shipChange(recordedAgent, 'recorded', async (branchId) => {
      await topics(recordedAgent, branchId);
      const r = await agents.call('PUT', `/v1/agents/${recordedAgent}/branches/${branchId}/settings`, {
        voice: { recording: true },
      });
      expectOk(r, 200);
      expect(r.body.settings.voice).toEqual({ recording: true });
    });
    ({ agentId: plainAgent } = await agents.createAgent('Plain line', GREETING));
    await agents.shipChange(plainAgent, 'plain', (branchId) => topics(plainAgent, branchId));
    expect((await agents.get(`/v1/agents/${plainAgent}/branches/main/settings`)).body.settings.voice).toEqual({
      recording: false,
    });
    await provision(t, recordedAgent, RECORDED, 'dev');
    await provision(t, plainAgent, PLAIN, 'dev');
    for (const agentId of [recordedAgent, plainAgent]) expectOk(await transcripts(agentId, true), 200);
    const r = await request(`${t.url}/admin/v1/accounts/${account.accountId}/api-keys`, {
      headers: op(t),
      body: { name: 'voice', agents: 'all', permissions: ['conversations'], expiresAt: oneYearAhead() },
    });
    expectOk(r, 201);
    key = r.body.key;
    question = await tts.synthesize('What are your opening hours?');
  }, patient(60_000));
  afterAll(async () => {
    await t?.close();
    process.env = saved;
  });

  const transcripts = (agentId: string, on: boolean) =>
    request(`${t.url}/v1/accounts/${account.accountId}/agents/${agentId}/data-access`, {
      method: 'PUT',
      body: { response_metrics: [], show_transcripts: on },
      headers: { 'x-api-key': account.key },
    });
  const uas: TestSipUa[] = [];
  afterEach(async () => {
    await Promise.all(uas.splice(0).map((ua) => ua.close()));
  });

  /** a caller who hears Parley: its utterances, and when each 20 ms frame was loud */
  async function dial(number: string, from: string) {
    const ua = await TestSipUa.open({ min: 38002, max: 39000 });
    uas.push(ua);
    const heard: Int16Array[] = [];
    const loudAt: number[] = [];
    let speaking = false;
    const detector = new UtteranceDetector({ endSilenceMs: 700 });
    ua.audio.onAudio((frame) => {
      if (rms(frame) > 500) loudAt.push(Date.now());
      for (const e of detector.push(frame)) {
        if (e.type === 'speech-start') speaking = true;
        if (e.type === 'utterance') {
          heard.push(e.pcm);
          speaking = false;
        }
      }
    });
    expect(await ua.call(sipPort, number, from)).toBe(200);
    await until('the greeting', () => heard.length >= 1, patient(20_000));
    return { ua, heard, loudAt, speaking: () => speaking };
  }

  const base = (agentId: string) => `${t.url}/v3/${account.accountId}/${agentId}/conversations`;

  async function conversationOf(
    agentId: string,
    from: string,
    ready: (c: { in_progress: boolean; num_turns: number }) => boolean,
  ) {
    const id = await until(
      `the conversation of ${from}`,
      async () => {
        const r = await request(`${base(agentId)}?client_env=sandbox`, { headers: { 'x-api-key': key } });
        const c =
          r.status === 200 ? r.body.conversations.find((x: { from_number: string }) => x.from_number === from) : null;
        return c && ready(c) ? (c.id as string) : null;
      },
      patient(20_000),
    );
    const r = await request(`${base(agentId)}/${id}`, { headers: { 'x-api-key': key } });
    expect(r.status).toBe(200);
    return r.body;
  }

  const recording = (agentId: string, id: string, apiKey = key) =>
    fetch(`${base(agentId)}/${id}/recording`, { headers: { 'x-api-key': apiKey } });

  it(
    'records a call when the agent says so: sealed at rest, served as WAV with both sides, 404 without transcript access, deleted after retention',
    async () => {
      const from = '+15557780001';
      const { ua, heard } = await dial(RECORDED, from);
      await ua.audio.play(question);
      await until('the answer', () => heard.length >= 2, patient(30_000));
      await ua.hangUp();
      const c = await conversationOf(recordedAgent, from, (x) => !x.in_progress && x.num_turns === 2);

      // at rest: sealed, not a WAV anyone with the disk can play
      const file = path.join(t.dataDir, 'recordings', `${c.id}.rec`);
      await until('the sealed recording', () => fs.existsSync(file), patient(10_000));
      const sealed = fs.readFileSync(file);
      expect(sealed.toString('ascii', 0, 4)).toBe('PRC1');
      expect(sealed.includes(Buffer.from('RIFF'))).toBe(false);

      const r = await recording(recordedAgent, c.id);
      expect(r.status).toBe(200);
      expect(r.headers.get('content-type')).toBe('audio/wav');
      const wav = Buffer.from(await r.arrayBuffer());
      expect(Number(r.headers.get('content-length'))).toBe(wav.length);
      const { caller, agent } = channelsOf(wav);
      // the whole call: greeting, question, answer (seconds of it)
      expect(caller.length).toBeGreaterThan(3 * 8000);
      // The caller's side is what the session heard in real time: on a loaded machine a late packet
      // is heard as silence and recognition may miss a word, so four of the five words, in order,
      // show it is the caller's speech (not silence, not the agent's side).
      const callerSaid = await asr.recognize(caller, { phrases: PHRASES });
      expect(`${wordsInOrder(callerSaid, 'what are your opening hours')} of 5 in "${callerSaid}"`).toMatch(
        /^[45] of 5/,
      );
      // the agent's side holds its greeting and answer, where the caller's side is quiet
      expect(rms(agent)).toBeGreaterThan(300);
      const greeting = agent.subarray(0, 8000 * 3);
      expect(await asr.recognize(greeting, { phrases: PHRASES })).toBe('hello how can i help');

      // transcript access off: the recording is not there either
      expectOk(await transcripts(recordedAgent, false), 200);
      const hidden = await request(`${base(recordedAgent)}/${c.id}/recording`, { headers: { 'x-api-key': key } });
      expectEnvelope(hidden, 404, 'RECORDING_NOT_FOUND');
      expectOk(await transcripts(recordedAgent, true), 200);
      // another project (the plain line) does not reach it by id; a hostile id is a 404 too
      expectEnvelope(await request(`${base(plainAgent)}/${c.id}/recording`, { headers: { 'x-api-key': key } }), 404);
      expectEnvelope(
        await request(`${base(recordedAgent)}/..%2F..%2Fserver-secret/recording`, { headers: { 'x-api-key': key } }),
        404,
      );
      // another tenant's key: refused by the key guard
      const other = await createAccount(t, 'Other Co');
      const foreign = await request(`${base(recordedAgent)}/${c.id}/recording`, {
        headers: { 'x-api-key': other.key },
      });
      expectEnvelope(foreign, 403);

      // retention: 30 days on the platform clock
      expectOk(
        await request(`${t.url}/admin/v1/clock/advance`, { headers: op(t), body: { seconds: 29 * 86400 } }),
        200,
      );
      await new Promise((r) => setTimeout(r, 500));
      expect((await recording(recordedAgent, c.id)).status).toBe(200);
      expectOk(await request(`${t.url}/admin/v1/clock/advance`, { headers: op(t), body: { seconds: 2 * 86400 } }), 200);
      await until('the recording deleted', () => !fs.existsSync(file), patient(15_000));
      expectEnvelope(
        await request(`${base(recordedAgent)}/${c.id}/recording`, { headers: { 'x-api-key': key } }),
        404,
        'RECORDING_NOT_FOUND',
      );
    },
    patient(60_000),
  );

  it(
    'records nothing by default',
    async () => {
      const from = '+15557780002';
      const { ua } = await dial(PLAIN, from);
      await ua.hangUp();
      const c = await conversationOf(plainAgent, from, (x) => !x.in_progress);
      await new Promise((r) => setTimeout(r, 500));
      expect(fs.existsSync(path.join(t.dataDir, 'recordings', `${c.id}.rec`))).toBe(false);
      expectEnvelope(
        await request(`${base(plainAgent)}/${c.id}/recording`, { headers: { 'x-api-key': key } }),
        404,
        'RECORDING_NOT_FOUND',
      );
    },
    patient(60_000),
  );

  it(
    'barge-in: the caller speaking over the answer silences it, and the next turn is `barge_in`',
    async () => {
      const from = '+15557780003';
      const { ua, heard, loudAt, speaking } = await dial(PLAIN, from);
      await ua.audio.play(question);
      await until('the answer starting', () => speaking() && heard.length === 1, patient(30_000));
      // a second into the (long) answer, the caller asks something else
      await new Promise((r) => setTimeout(r, 1000));
      const office = await tts.synthesize('Where is your office?');
      const bargedAt = Date.now();
      await ua.audio.play(office);
      const saidUntil = Date.now();
      // while the caller still spoke, Parley's audio stopped: no loud frame past a bounded delay
      const lastLoud = loudAt.filter((at) => at >= bargedAt && at <= saidUntil).pop() ?? bargedAt;
      expect(lastLoud - bargedAt).toBeLessThan(patient(1000));
      expect(saidUntil - bargedAt).toBeGreaterThan(800);

      const c = await conversationOf(plainAgent, from, (x) => x.num_turns === 3);
      const [, first, second] = c.turns;
      expect(first).toMatchObject({ user_input: 'what are your opening hours', barge_in: false, interrupted: true });
      expect(second).toMatchObject({ user_input: 'where is your office', barge_in: true, agent_response: OFFICE });
      await ua.hangUp();
    },
    patient(60_000),
  );

  it(
    'a call held past SIP_HOLD_LIMIT_S is hung up by Parley, the conversation ended as a timeout',
    async () => {
      const from = '+15557780004';
      const { ua } = await dial(PLAIN, from);
      expect(await ua.hold('sendonly')).toBe(200);
      const heldAt = Date.now();
      await Promise.race([
        ua.hungUpByParley,
        new Promise((_, reject) => setTimeout(() => reject(new Error('no BYE from Parley')), patient(15_000)).unref()),
      ]);
      expect(Date.now() - heldAt).toBeGreaterThan(1500);
      const c = await conversationOf(plainAgent, from, (x) => !x.in_progress);
      const events = await request(`${base(plainAgent)}/${c.id}/events`, { headers: { 'x-api-key': key } });
      expect(events.status).toBe(200);
      const ended = events.body.events.find((e: { type: string }) => e.type === 'ConversationEnded');
      expect(ended.data.reason).toBe('timeout');
    },
    patient(60_000),
  );

  it(
    'a call resumed before the hold limit goes on',
    async () => {
      const { ua } = await dial(PLAIN, '+15557780006');
      expect(await ua.hold('inactive')).toBe(200);
      await new Promise((r) => setTimeout(r, 1000));
      expect(await ua.hold('sendrecv')).toBe(200);
      const bye = await Promise.race([
        ua.hungUpByParley.then(() => 'bye'),
        new Promise((r) => setTimeout(() => r('still up'), 3000)),
      ]);
      expect(bye).toBe('still up');
      await ua.hangUp();
    },
    patient(60_000),
  );

  it(
    'a caller who hangs up while the answer plays keeps the turn; the answer is marked interrupted',
    async () => {
      const from = '+15557780005';
      const { ua, heard, speaking } = await dial(PLAIN, from);
      await ua.audio.play(question);
      await until('the answer starting', () => speaking() && heard.length === 1, patient(30_000));
      await ua.hangUp();
      const c = await conversationOf(plainAgent, from, (x) => !x.in_progress);
      expect(c.num_turns).toBe(2);
      expect(c.turns[1]).toMatchObject({
        user_input: 'what are your opening hours',
        agent_response: HOURS,
        interrupted: true,
        barge_in: false,
      });
    },
    patient(60_000),
  );
});
