import { SipServer } from '../../src/sip/sip-server';
import type { SpeechRecognizer, SpeechSynthesizer } from '../../src/voice/speech/speech.port';
import { provision } from '../calls/calls-fixture';
import { AgentsClient, createAccount } from '../helpers/agents-fixture';
import { startTestApp, type TestApp } from '../helpers/test-app';
import { patient } from '../support/patience';
import { TestSipUa } from './test-sip-ua';

const GREETING = 'Hello, the seam line.';
const HOURS = 'We are open from nine to five.';
const NUMBER = '+15550300007';

const tone = (ms: number) =>
  Int16Array.from({ length: ms * 8 }, (_, i) => Math.round(6000 * Math.sin((2 * Math.PI * 300 * i) / 8000)));

async function until(what: string, ready: () => boolean, ms: number): Promise<void> {
  const deadline = Date.now() + ms;
  while (!ready()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/**
 * VoiceSeam.speech (src/sip/voice-seam.module.ts): the engines given there, not the configured ones,
 * hear and speak every call SIP answers. The voice bench measures the platform without speech engines
 * through it, so a seam that silently fell back to pocketsphinx would make its stubbed figures lie.
 */
describe('speech engines given through the voice seam', () => {
  let t: TestApp;
  const said: string[] = [];
  const heard: number[] = [];
  const synthesizer: SpeechSynthesizer = {
    name: 'recording',
    synthesize: async (text) => {
      said.push(text);
      return tone(400);
    },
  };
  const recognizer: SpeechRecognizer = {
    name: 'fixed',
    recognize: async (pcm) => {
      heard.push(pcm.length);
      return 'What are your opening hours?';
    },
  };

  beforeAll(async () => {
    t = await startTestApp({ SIP_LISTEN_PORT: '0' }, undefined, [], { speech: { recognizer, synthesizer } });
    const account = await createAccount(t, 'Seam Co');
    const agents = new AgentsClient(t, account);
    const { agentId } = await agents.createAgent('Seam line', GREETING);
    await agents.shipChange(agentId, 'first', async (branchId) => {
      await agents.addTopic(agentId, branchId, {
        name: 'Opening hours',
        content: HOURS,
        queries: ['What are your opening hours?'],
      });
    });
    await provision(t, agentId, NUMBER, 'dev');
  }, patient(60_000));
  afterAll(async () => {
    await t?.close();
  });

  it(
    'greets with the given synthesiser and answers what the given recogniser heard',
    async () => {
      const ua = await TestSipUa.open({ min: 37002, max: 38000 });
      try {
        expect(await ua.call(t.app.get(SipServer).address()!.port, NUMBER, '+15557770070')).toBe(200);
        await until('the greeting', () => said.includes(GREETING), patient(15_000));
        await new Promise((r) => setTimeout(r, 800));
        await ua.audio.play(tone(1000));
        await until('the answer', () => said.includes(HOURS), patient(15_000));
        // once: at the pause that ended the turn (was it complete? docs/voice.md "End of turn that
        // adapts"), whose text is the turn's, as nothing was said after it
        expect(heard).toHaveLength(1);
        await ua.hangUp();
      } finally {
        await ua.close();
      }
    },
    patient(45_000),
  );
});
