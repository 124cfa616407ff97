import { parseWav, speechSpans, turnAt, turnStarts } from '../../studio/src/player/call-timeline';
import { changesOf, draftOf, patchOf, problemsOf, valuesOf } from '../../studio/src/settings/settings-form';

/** A WAV file as the recording API serves one: 8 kHz 16-bit stereo, left the caller, right the agent. */
function wav(caller: number[], agent: number[]): ArrayBuffer {
  const frames = caller.length;
  const bytes = Buffer.alloc(44 + frames * 4);
  bytes.write('RIFF', 0, 'ascii');
  bytes.writeUInt32LE(36 + frames * 4, 4);
  bytes.write('WAVEfmt ', 8, 'ascii');
  bytes.writeUInt32LE(16, 16);
  bytes.writeUInt16LE(1, 20);
  bytes.writeUInt16LE(2, 22);
  bytes.writeUInt32LE(8000, 24);
  bytes.writeUInt32LE(32000, 28);
  bytes.writeUInt16LE(4, 32);
  bytes.writeUInt16LE(16, 34);
  bytes.write('data', 36, 'ascii');
  bytes.writeUInt32LE(frames * 4, 40);
  for (let i = 0; i < frames; i++) {
    bytes.writeInt16LE(caller[i], 44 + i * 4);
    bytes.writeInt16LE(agent[i], 46 + i * 4);
  }
  return bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.length);
}

/** `seconds` of a 400 Hz tone (speech, as far as loudness goes) or of silence, at 8 kHz */
const tone = (seconds: number) => Array.from({ length: seconds * 8000 }, (_, i) => Math.round(8000 * Math.sin(i / 3)));
const quiet = (seconds: number) => new Array<number>(seconds * 8000).fill(0);

describe('Studio call player timeline', () => {
  it('reads both channels of the recording, and where each speaks', () => {
    // the agent greets for 1 s; the caller speaks from 2 s to 3 s; the agent answers from 4 s to 5 s
    const caller = [...quiet(2), ...tone(1), ...quiet(3)];
    const agent = [...tone(1), ...quiet(3), ...tone(1), ...quiet(1)];
    const audio = parseWav(wav(caller, agent));
    expect(audio.rate).toBe(8000);
    expect(audio.caller.length).toBe(6 * 8000);
    const callerSpans = speechSpans(audio.caller, audio.rate);
    expect(callerSpans).toHaveLength(1);
    expect(callerSpans[0].start).toBeCloseTo(2, 1);
    expect(callerSpans[0].end).toBeCloseTo(3, 1);
    expect(speechSpans(audio.agent, audio.rate).map((s) => Math.round(s.start))).toEqual([0, 4]);
    expect(() => parseWav(new ArrayBuffer(8))).toThrow('not a WAV file');
  });

  it('starts a user turn where the caller began the words the runtime took, by time or else in order', () => {
    const spans = [
      { start: 2, end: 3 },
      { start: 6, end: 7.5 },
    ];
    const turns = [
      { user_input: '', user_input_datetime: '2030-01-01T00:00:00.000Z' },
      { user_input: 'where is your office', user_input_datetime: '2030-01-01T00:00:04.000Z' },
      { user_input: 'thanks', user_input_datetime: '2030-01-01T00:00:08.500Z' },
    ];
    const starts = turnStarts(turns, '2030-01-01T00:00:00.000Z', spans, 10);
    expect(starts).toEqual([0, 2, 6]);
    // a frozen clock: every turn at the start; the caller's stretches in order
    const frozen = turns.map((t) => ({ ...t, user_input_datetime: '2030-01-01T00:00:00.000Z' }));
    expect(turnStarts(frozen, '2030-01-01T00:00:00.000Z', spans, 10)).toEqual([0, 2, 6]);
    expect(turnAt(starts, 0)).toBe(0);
    expect(turnAt(starts, 1.99)).toBe(0);
    expect(turnAt(starts, 2)).toBe(1);
    expect(turnAt(starts, 9)).toBe(2);
  });
});

describe('Studio runtime settings form', () => {
  const settings = {
    confidence_threshold: 0.22,
    fallback_text: 'Sorry.',
    small_talk: true,
    environment_models: {},
    retrieval: { mode: 'lexical' as const },
    voice: { recording: false },
  };

  it('checks each field with the API’s rules, named by its path', () => {
    const draft = draftOf(settings, []);
    expect(problemsOf(valuesOf(draft))).toEqual({});
    expect(problemsOf(valuesOf({ ...draft, confidence_threshold: '1.5' }))).toEqual({
      confidence_threshold: 'confidence_threshold must be a number from 0 to 1',
    });
    expect(problemsOf(valuesOf({ ...draft, confidence_threshold: 'abc' }))).toEqual({
      confidence_threshold: 'confidence_threshold must be a number from 0 to 1',
    });
    const live = { ...draft.models.live, set: true, model: '', temperature: '0.5' };
    expect(problemsOf(valuesOf({ ...draft, models: { ...draft.models, live } }))).toEqual({
      'environment_models.live.model': 'environment_models.live.model is required unless the provider is embedded',
    });
    expect(
      problemsOf(valuesOf({ ...draft, retrieval_mode: 'hybrid', retrieval_endpoint: '', retrieval_timeout_ms: '20' })),
    ).toEqual({ 'retrieval.endpoint': 'retrieval.endpoint is required when the mode is hybrid' });
  });

  it('sends only what changed; a blank threshold puts the default back', () => {
    const loaded = valuesOf(draftOf(settings, []));
    const draft = draftOf(settings, []);
    expect(changesOf(valuesOf(draft), loaded)).toEqual([]);
    const live = { ...draft.models.live, set: true, model: 'gpt-4o', endpoint: 'acme' };
    const changed = changesOf(
      valuesOf({ ...draft, confidence_threshold: '0.5', recording: true, models: { ...draft.models, live } }),
      loaded,
    );
    expect(patchOf(changed)).toEqual({
      confidence_threshold: 0.5,
      environment_models: { live: { provider: 'openai', model: 'gpt-4o', endpoint: 'acme' } },
      voice: { recording: true },
    });
    const tuned = { ...settings, confidence_threshold: 0.5 };
    const back = changesOf(
      valuesOf({ ...draftOf(tuned, ['confidence_threshold']), confidence_threshold: '' }),
      valuesOf(draftOf(tuned, ['confidence_threshold'])),
    );
    expect(patchOf(back)).toEqual({ confidence_threshold: null });
  });
});
