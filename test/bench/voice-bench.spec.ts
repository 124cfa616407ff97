import { encodeG711, decodeG711 } from '../../src/voice/media/g711';
import {
  AgentAudioWatch,
  isVoiced,
  trimTrailingSilence,
  voicedSpan,
  VOICED_RMS,
} from '../../bench/lib/voice/agent-audio';
import { callsHeld, nextLevel, p95Of, percentile, type LevelOutcome } from '../../bench/lib/voice/ramp';
import { nearestByLength } from '../../bench/lib/voice/stub-speech';

const FRAME = 160;
const tone = (samples: number, amplitude: number) =>
  Int16Array.from({ length: samples }, (_, i) => Math.round(amplitude * Math.sin((2 * Math.PI * 440 * i) / 8000)));
const silence = (samples: number) => new Int16Array(samples);
const concat = (...parts: Int16Array[]) => {
  const out = new Int16Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) out.set(p, (at += p.length) - p.length);
  return out;
};

describe('voice bench: the first-audio detector', () => {
  it("counts the codecs' comfort silence as silence and a quiet syllable as voice, after G.711", () => {
    for (const codec of ['PCMU', 'PCMA'] as const) {
      expect(isVoiced(decodeG711(codec, encodeG711(codec, silence(FRAME))))).toBe(false);
      // a faint syllable: RMS ~ 212, twice the threshold
      expect(isVoiced(decodeG711(codec, encodeG711(codec, tone(FRAME, 300))))).toBe(true);
      expect(isVoiced(decodeG711(codec, encodeG711(codec, tone(FRAME, VOICED_RMS))))).toBe(false);
    }
  });

  it('times the first voiced packet at or after the arming, not an earlier one nor a silent one', async () => {
    const watch = new AgentAudioWatch();
    watch.push(tone(FRAME, 3000), 100); // the greeting, before the caller spoke
    watch.arm(1000);
    watch.push(silence(FRAME), 1500);
    const first = watch.firstVoicedAfter();
    watch.push(tone(FRAME, 3000), 1620);
    watch.push(tone(FRAME, 3000), 1640);
    await expect(first).resolves.toBe(1620);
    // asked again later: the same packet
    await expect(watch.firstVoicedAfter()).resolves.toBe(1620);
    expect(watch.quietFor(2000)).toBe(360);
    expect(watch.voiced).toBe(3);
  });

  it('knows no quiet time before any voice, and re-arming forgets the previous answer', async () => {
    const watch = new AgentAudioWatch();
    expect(watch.quietFor(10)).toBe(Infinity);
    watch.arm(0);
    watch.push(tone(FRAME, 3000), 50);
    watch.arm(500);
    let resolved = false;
    void watch.firstVoicedAfter().then(() => (resolved = true));
    await new Promise((r) => setImmediate(r));
    expect(resolved).toBe(false);
  });

  it('cuts a rendering at its last voiced frame and measures what was said between silences', () => {
    const said = concat(silence(400), tone(1600, 3000), silence(2000));
    const trimmed = trimTrailingSilence(said);
    // the frame holding the last voiced samples is kept whole
    expect(trimmed.length).toBe(2080);
    expect(isVoiced(trimmed.subarray(trimmed.length - FRAME))).toBe(true);
    expect(trimTrailingSilence(silence(800)).length).toBe(0);
    expect(voicedSpan(said)).toBe(1760);
    expect(voicedSpan(silence(800))).toBe(0);
  });

  it("the stub recogniser's choice: the known utterance nearest in voiced length", () => {
    const known = [
      { text: 'short', samples: 7000 },
      { text: 'medium', samples: 10000 },
      { text: 'long', samples: 20000 },
    ];
    expect(nearestByLength(known, 7400)).toBe('short');
    expect(nearestByLength(known, 9000)).toBe('medium');
    expect(nearestByLength(known, 30000)).toBe('long');
  });
});

describe('voice bench: the ramp', () => {
  const level = (calls: number, waitsMs: number[], unanswered = 0): LevelOutcome => ({ calls, waitsMs, unanswered });
  const steps = [1, 2, 4, 8];

  it('takes the nearest-rank p95, an unanswered turn as an endless wait', () => {
    const waits = Array.from({ length: 20 }, (_, i) => (i + 1) * 100);
    expect(percentile(waits, 0.95)).toBe(1900);
    expect(percentile(waits, 0.5)).toBe(1000);
    expect(p95Of(level(1, waits.slice(0, 19)))).toBe(1900);
    // one unanswered turn in twenty is the 5% p95 tolerates; two are not
    expect(p95Of(level(1, waits.slice(0, 19), 1))).toBe(1900);
    expect(p95Of(level(1, waits.slice(0, 18), 2))).toBe(Infinity);
    expect(p95Of(level(1, []))).toBe(Infinity);
  });

  it('climbs the steps while each level holds and stops after the first that does not', () => {
    const fast = (calls: number) => level(calls, [800, 900, 1000]);
    const slow = (calls: number) => level(calls, [800, 1600, 2000]);
    expect(nextLevel([], steps, 1500)).toBe(1);
    expect(nextLevel([fast(1), fast(2)], steps, 1500)).toBe(4);
    expect(nextLevel([fast(1), fast(2), slow(4)], steps, 1500)).toBeNull();
    // the steps run out: stop, having held them all
    expect(nextLevel(steps.map(fast), steps, 1500)).toBeNull();
    expect(callsHeld(steps.map(fast), 1500)).toBe(8);
    expect(callsHeld([fast(1), fast(2), slow(4)], 1500)).toBe(2);
    expect(callsHeld([slow(1)], 1500)).toBe(0);
    // the limit is inclusive
    expect(callsHeld([level(1, [1500])], 1500)).toBe(1);
  });
});
