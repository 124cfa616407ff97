/**
 * @jest-environment <rootDir>/test/support/onnx-environment.ts
 */
import type { AddressInfo } from 'node:net';
import { WebSocketServer } from 'ws';
import { patient } from '../../../test/support/patience';
import type { NegotiatedAudio } from '../call-media.port';
import { RtpCallAudioFactory } from '../media/rtp-call-audio-factory';
import type { RtpSession } from '../media/rtp-session';
import { EspeakSynthesizer } from '../speech/espeak-synthesizer';
import { PocketsphinxRecognizer } from '../speech/pocketsphinx-recognizer';
import type { SpeechRecognizer } from '../speech/speech.port';
import { WebSocketRecognizer } from '../speech/websocket-recognizer';
import { loadVoiceConfig } from '../voice-config';
import { UtteranceDetector } from './utterance-detector';
import { loadVoiceActivity } from './voice-activity';
import type { HangUpReason, UserTurnInput, VoiceDialogue } from './voice-dialogue.port';
import { VoiceLoop, type VoiceLoopOptions } from './voice-loop';

/**
 * The loop end to end on 127.0.0.1: a peer RTP session plays the caller's side (espeak-ng's
 * voice), the agent's side runs the real loop with pocketsphinx and espeak-ng, and the caller's
 * side recognises what it heard back with pocketsphinx too.
 */
const factory = new RtpCallAudioFactory(loadVoiceConfig({ RTP_PORT_MIN: '31002', RTP_PORT_MAX: '32000' }));
const MODEL = '/usr/share/pocketsphinx/model/en-us';
const tts = new EspeakSynthesizer('espeak-ng', 'en-us');
const asr = new PocketsphinxRecognizer('pocketsphinx_continuous', MODEL);

const GREETING = 'Hello, how can I help?';
const ANSWER = 'We are open from nine to five on weekdays.';
const PHRASES = [
  'What are your opening hours?',
  'Where is your office?',
  'I want to talk to a person',
  'Hello',
  'Goodbye',
  'Stop',
];
/** what the caller's side may hear: the answer among look-alikes, so recognising it means something */
const HEARD_PHRASES = [
  GREETING,
  ANSWER,
  'We are closed on public holidays.',
  'Our office is in the city centre.',
  'Are you still there?',
];

const towards = (peer: RtpSession): NegotiatedAudio => ({
  codec: 'PCMU',
  payloadType: 0,
  dtmfPayloadType: 101,
  remoteAddress: '127.0.0.1',
  remotePort: peer.localPort,
  direction: 'sendrecv',
});

async function until<T>(what: string, get: () => T | undefined | null | false, ms = patient(20_000)): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = get();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

class TextDialogue implements VoiceDialogue {
  readonly inputs: UserTurnInput[] = [];
  hungUp: HangUpReason | null = null;
  constructor(private readonly answer: (input: UserTurnInput) => string | AsyncIterable<string>) {}
  greet() {
    return Promise.resolve(GREETING);
  }
  userTurn(input: UserTurnInput) {
    this.inputs.push(input);
    return Promise.resolve(this.answer(input));
  }
  hangUp(reason: HangUpReason) {
    this.hungUp = reason;
    return Promise.resolve();
  }
}

describe('VoiceLoop over RTP with the embedded speech engines', () => {
  let agent: RtpSession;
  let caller: RtpSession;
  /** what the caller's side heard, cut into the agent's utterances */
  let heard: Int16Array[];
  let callerSpeechStarts: number;
  let loop: VoiceLoop | null;

  beforeEach(async () => {
    agent = await factory.open('127.0.0.1');
    caller = await factory.open('127.0.0.1');
    agent.connect(towards(caller));
    caller.connect(towards(agent));
    heard = [];
    callerSpeechStarts = 0;
    const detector = new UtteranceDetector({ endSilenceMs: 700 });
    caller.onAudio((frame) => {
      for (const e of detector.push(frame)) {
        if (e.type === 'speech-start') callerSpeechStarts++;
        if (e.type === 'utterance') heard.push(e.pcm);
      }
    });
    loop = null;
  });
  afterEach(async () => {
    loop?.stop();
    await agent.close();
    await caller.close();
  });

  const startLoop = (
    dialogue: VoiceDialogue,
    options: Partial<ConstructorParameters<typeof VoiceLoop>[4]> = {},
    recognizer: SpeechRecognizer = asr,
  ) => {
    loop = new VoiceLoop(agent, dialogue, recognizer, tts, {
      endOfUtteranceMs: 500,
      silencePromptMs: 60_000,
      silencePromptsBeforeHangUp: 2,
      phrases: PHRASES,
      ...options,
    });
    loop.start();
    return loop;
  };

  it('greets, recognises the question, and answers with audio the caller recognises', async () => {
    const dialogue = new TextDialogue((input) => (input.text?.includes('opening hours') ? ANSWER : 'Sorry?'));
    const voice = startLoop(dialogue);
    await until('the greeting', () => heard.length >= 1);
    expect(await asr.recognize(heard[0], { phrases: HEARD_PHRASES })).toBe('hello how can i help');

    await caller.play(await tts.synthesize('What are your opening hours?'));
    await until('the answer', () => heard.length >= 2, patient(30_000));
    expect(dialogue.inputs[0]).toMatchObject({ text: 'what are your opening hours', bargeIn: false });
    const answer = await asr.recognize(heard[1], { phrases: HEARD_PHRASES });
    expect(answer).toContain('nine to five');
    const [turn] = voice.turns;
    expect(turn.asr_ms).toBeGreaterThan(0);
    expect(turn.tts_ms).toBeGreaterThan(0);
    expect(turn.first_audio_ms).toBeGreaterThan(0);
    expect(turn.first_audio_ms).toBeLessThan(patient(5000));
  });

  it('hears the caller through the Silero model, answers, and stops when barged in on', async () => {
    const vad = await loadVoiceActivity();
    expect(vad.kind).toBe('silero');
    const long = Array.from({ length: 12 }, (_, i) => `This is sentence number ${i + 1} of a long answer.`).join(' ');
    const dialogue = new TextDialogue((input) => (input.text?.includes('opening hours') ? long : 'Goodbye.'));
    startLoop(dialogue, { voiceActivity: vad });
    await until('the greeting', () => heard.length >= 1);
    await caller.play(await tts.synthesize('What are your opening hours?'));
    await until('the long answer to start', () => callerSpeechStarts >= 2 && agent.speaking, patient(30_000));
    expect(dialogue.inputs[0]).toMatchObject({ text: 'what are your opening hours', bargeIn: false });
    await caller.play(await tts.synthesize('Stop'));
    await until('the second turn', () => dialogue.inputs.length >= 2, patient(30_000));
    expect(dialogue.inputs[1].bargeIn).toBe(true);
  });

  it('waits through a pause mid-phrase when the end of turn adapts, and is cut off there when it is fixed', async () => {
    const gap = new Int16Array(0.8 * 8000); // "I would like to … know your opening hours"
    const first = await tts.synthesize('I would like to');
    const second = await tts.synthesize('know your opening hours');
    const paused = new Int16Array(first.length + gap.length + second.length);
    paused.set(first, 0);
    paused.set(second, first.length + gap.length);
    const turnsHeard = async (options: Partial<VoiceLoopOptions>) => {
      const dialogue = new TextDialogue(() => 'Thank you.');
      // free-form recognition: the caller's words are not among the agent's phrases
      startLoop(dialogue, { phrases: [], ...options });
      await until('the greeting', () => heard.length >= 1);
      const played = heard.length;
      await caller.play(paused);
      await until('a turn', () => dialogue.inputs.length >= 1, patient(30_000));
      await until('its answer', () => heard.length > played, patient(30_000));
      await until('the loop to go quiet', () => !agent.speaking);
      // anything cut off would have been a second turn by now
      await new Promise((r) => setTimeout(r, 1500));
      loop?.stop();
      heard.length = 0;
      return dialogue.inputs.map((i) => i.text);
    };
    const adaptive = await turnsHeard({ endOfTurn: { minMs: 300, maxMs: 1500 } });
    expect(adaptive).toHaveLength(1);
    expect(adaptive[0]).toMatch(/ (know|no|hours|our)/);
    const fixed = await turnsHeard({});
    expect(fixed.length).toBeGreaterThanOrEqual(2);
  });

  it('ends the turn sooner after a complete request', async () => {
    let turnAt = 0;
    const dialogue = new TextDialogue(() => {
      turnAt = Date.now();
      return 'We are open from nine to five on weekdays.';
    });
    const voice = startLoop(dialogue, { endOfUtteranceMs: 1200, endOfTurn: { minMs: 300, maxMs: 1500 } });
    await until('the greeting', () => heard.length >= 1);
    await caller.play(await tts.synthesize('What are your opening hours?'));
    const spokeUntil = Date.now();
    await until('the turn', () => dialogue.inputs.length >= 1, patient(30_000));
    expect(dialogue.inputs[0].text).toBe('what are your opening hours');
    // the pause that ended the turn: from the caller's last packet to the turn, less its recognition
    const waited = turnAt - spokeUntil - voice.turns[0].asr_ms;
    expect(waited).toBeLessThan(1200); // the fixed wait would have been 1200 ms
  });

  it('stops speaking when the caller barges in, and flags the next turn', async () => {
    const long = Array.from({ length: 12 }, (_, i) => `This is sentence number ${i + 1} of a long answer.`).join(' ');
    const dialogue = new TextDialogue((input) => (input.text?.includes('opening hours') ? long : 'Goodbye.'));
    const voice = startLoop(dialogue);
    await until('the greeting', () => heard.length >= 1);
    await caller.play(await tts.synthesize('What are your opening hours?'));
    await until('the long answer to start', () => callerSpeechStarts >= 2 && agent.speaking, patient(30_000));
    await new Promise((r) => setTimeout(r, 1000));
    const sentBefore = agent.stats.sent;
    await caller.play(await tts.synthesize('Stop'));
    await until('the second turn', () => dialogue.inputs.length >= 2, patient(30_000));
    expect(dialogue.inputs[1].bargeIn).toBe(true);
    expect(dialogue.inputs[0].bargeIn).toBe(false);
    // the long answer (about 20 s of speech) was cut: far fewer packets than it needs went out
    expect(agent.stats.sent - sentBefore).toBeLessThan(patient(20_000) / 20);
    await until('the loop to go quiet', () => !agent.speaking);
    expect(voice.turns).toHaveLength(2);
  });

  it('speaks the first sentence while the rest of the answer is still being written', async () => {
    // the dialogue writes its second sentence only once the caller has heard the first: a loop that
    // waited for the whole answer would never speak at all
    let firstHeard!: () => void;
    const heardFirst = new Promise<void>((resolve) => (firstHeard = resolve));
    let secondWrittenAt = 0;
    async function* written(): AsyncGenerator<string> {
      yield 'We are open from nine ';
      yield 'to five on weekdays. We are ';
      await heardFirst;
      secondWrittenAt = Date.now();
      yield 'closed on public holidays.';
    }
    const dialogue = new TextDialogue(() => written());
    const voice = startLoop(dialogue);
    await until('the greeting', () => heard.length >= 1);
    const asked = Date.now();
    await caller.play(await tts.synthesize('What are your opening hours?'));
    await until('the first sentence to be heard', () => heard.length >= 2, patient(30_000));
    firstHeard();
    expect(await asr.recognize(heard[1], { phrases: HEARD_PHRASES })).toContain('nine to five');
    await until('the second sentence to be heard', () => heard.length >= 3, patient(30_000));
    expect(await asr.recognize(heard[2], { phrases: HEARD_PHRASES })).toContain('public holidays');
    const [turn] = voice.turns;
    expect(turn.tts_ms).toBeGreaterThan(0);
    // the first audio left before the dialogue had written the answer's end
    expect(turn.first_audio_ms).toBeGreaterThan(0);
    expect(turn.first_audio_ms).toBeLessThan(secondWrittenAt - asked);
  });

  it('takes the next turn at once when the caller barges in while the answer is still being written', async () => {
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    async function* written(): AsyncGenerator<string> {
      yield 'We are open from nine to five on weekdays. ';
      await held; // the model is still writing when the caller cuts in
      yield 'We are closed on public holidays.';
    }
    const dialogue = new TextDialogue((input) => (input.text?.includes('opening hours') ? written() : 'Goodbye.'));
    try {
      startLoop(dialogue);
      await until('the greeting', () => heard.length >= 1);
      await caller.play(await tts.synthesize('What are your opening hours?'));
      await until('the first sentence', () => heard.length >= 2, patient(30_000));
      await caller.play(await tts.synthesize('Stop'));
      // a loop that waited for the rest of the cut-off answer would never take this turn
      await until('the second turn', () => dialogue.inputs.length >= 2, patient(30_000));
      expect(dialogue.inputs[1].bargeIn).toBe(true);
      await until('its answer', () => heard.length >= 3, patient(30_000));
      expect(await asr.recognize(heard[2], { phrases: [...HEARD_PHRASES, 'Goodbye.'] })).toBe('goodbye');
    } finally {
      release();
    }
  });

  it('takes digits as user input', async () => {
    const dialogue = new TextDialogue((input) => (input.dtmf ? `You pressed ${input.dtmf}.` : 'Sorry?'));
    startLoop(dialogue, { dtmfInterDigitMs: 800 });
    await until('the greeting', () => heard.length >= 1);
    await caller.sendDigits('42#');
    await until('a digit turn', () => dialogue.inputs.length >= 1);
    expect(dialogue.inputs[0]).toMatchObject({ dtmf: '42#', bargeIn: false, latency: { asr_ms: 0 } });
    await caller.sendDigits('7');
    await until('the second digit turn (after the pause)', () => dialogue.inputs.length >= 2);
    expect(dialogue.inputs[1].dtmf).toBe('7');
  });

  it('prompts into silence, then hangs up', async () => {
    const dialogue = new TextDialogue(() => 'Sorry?');
    const voice = startLoop(dialogue, {
      silencePromptMs: 1000,
      silencePromptsBeforeHangUp: 1,
      silencePrompt: 'Are you still there?',
    });
    expect(await voice.done).toBe('silence');
    expect(dialogue.hungUp).toBe('silence');
    await until('the prompt to be heard', () => heard.length >= 2);
    expect(await asr.recognize(heard[1], { phrases: HEARD_PHRASES })).toBe('are you still there');
    expect(dialogue.inputs).toHaveLength(0);
  });

  it('feeds a streaming recogniser while the caller speaks', async () => {
    // a local stand-in for a hosted streaming recognition service: it answers how much audio it
    // had been sent by the time the caller stopped
    const service = new WebSocketServer({ port: 0, host: '127.0.0.1' });
    await new Promise((r) => service.once('listening', r));
    try {
      service.on('connection', (socket) => {
        let bytes = 0;
        socket.on('message', (data, binary) => {
          if (binary) bytes += (data as Buffer).length;
          else if ((JSON.parse(data.toString()) as { type: string }).type === 'end')
            socket.send(JSON.stringify({ type: 'final', text: `heard ${Math.round(bytes / 16000)} seconds` }));
        });
      });
      const url = `ws://127.0.0.1:${(service.address() as AddressInfo).port}`;
      const dialogue = new TextDialogue(() => 'Thank you.');
      startLoop(dialogue, {}, new WebSocketRecognizer(url, null));
      await until('the greeting', () => heard.length >= 1);
      await caller.play(await tts.synthesize('What are your opening hours? I would like to know them please.'));
      await until('a turn', () => dialogue.inputs.length >= 1, patient(30_000));
      // about 3 s of speech plus the pre-roll and the end-of-utterance pause
      expect(dialogue.inputs[0].text).toMatch(/^heard [2-5] seconds$/);
    } finally {
      await new Promise((r) => service.close(r));
    }
  });
});
