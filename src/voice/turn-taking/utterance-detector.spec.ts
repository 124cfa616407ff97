import fc from 'fast-check';
import { UtteranceDetector, type UtteranceEvent } from './utterance-detector';

const frame = (level: number, seed = 1) =>
  Int16Array.from({ length: 160 }, (_, i) => Math.round(level * Math.sin((2 * Math.PI * 300 * i) / 8000 + seed)));
const noise = (level: number) => Int16Array.from({ length: 160 }, () => Math.round((Math.random() * 2 - 1) * level));
const feed = (d: UtteranceDetector, frames: Int16Array[]) => frames.flatMap((f) => d.push(f));
const repeat = (n: number, make: () => Int16Array) => Array.from({ length: n }, make);
const LOUD = frame(6000);
const QUIET = frame(0);

describe('UtteranceDetector', () => {
  it('starts on sustained speech and ends after the configured silence, keeping the onset', () => {
    const d = new UtteranceDetector({ endSilenceMs: 400 });
    const events: UtteranceEvent[] = feed(d, [...repeat(20, () => frame(0)), ...repeat(25, () => frame(5000))]);
    expect(events.map((e) => e.type)).toEqual(['speech-start']);
    expect(
      feed(
        d,
        repeat(19, () => frame(0)),
      ),
    ).toEqual([]); // 380 ms of silence is a pause
    const end = feed(d, [frame(0)]);
    expect(end.map((e) => e.type)).toEqual(['utterance']);
    const pcm = (end[0] as { pcm: Int16Array }).pcm;
    // the pre-roll (7 of silence, the 3 that started speech) + 22 more of speech + 20 of silence
    expect(pcm.length).toBe((10 + 22 + 20) * 160);
  });

  it('a pause shorter than the end silence does not split an utterance', () => {
    const d = new UtteranceDetector({ endSilenceMs: 400 });
    const events = feed(d, [
      ...repeat(10, () => frame(5000)),
      ...repeat(10, () => frame(0)),
      ...repeat(10, () => frame(5000)),
      ...repeat(20, () => frame(0)),
    ]);
    expect(events.map((e) => e.type)).toEqual(['speech-start', 'utterance']);
  });

  it('discards a click and ignores steady background noise (the floor adapts to it)', () => {
    const d = new UtteranceDetector({ endSilenceMs: 200 });
    const click = feed(d, [...repeat(3, () => frame(5000)), ...repeat(10, () => frame(0))]);
    expect(click.map((e) => e.type)).toEqual(['speech-start', 'discarded']);
    const noisy = new UtteranceDetector({ endSilenceMs: 200 });
    feed(
      noisy,
      repeat(200, () => noise(800)),
    ); // the first seconds of a line teach the floor
    expect(
      feed(
        noisy,
        repeat(200, () => noise(800)),
      ),
    ).toEqual([]);
    // ...and speech well above that noise is still heard
    expect(feed(noisy, [...repeat(20, () => frame(9000)), ...repeat(15, () => noise(800))]).map((e) => e.type)).toEqual(
      ['speech-start', 'utterance'],
    );
  });

  it('reports a pause, and ends the utterance after the wait said for it', () => {
    const d = new UtteranceDetector({ endSilenceMs: 400, pauseMs: 160 });
    const start = feed(
      d,
      repeat(10, () => frame(5000)),
    );
    expect(start.map((e) => e.type)).toEqual(['speech-start']);
    const pause = feed(
      d,
      repeat(8, () => frame(0)),
    );
    expect(pause).toHaveLength(1);
    const event = pause[0] as Extract<UtteranceEvent, { type: 'pause' }>;
    expect(event.type).toBe('pause');
    expect(event.pcm.length).toBe((10 + 8) * 160); // what was heard so far, the pause included
    // mid-phrase: wait longer than the default 400 ms
    d.waitFor(event.pause, 1000);
    expect(
      feed(
        d,
        repeat(30, () => frame(0)),
      ),
    ).toEqual([]);
    // the caller goes on: the next pause is decided afresh (default 400), a stale decision ignored
    expect(
      feed(
        d,
        repeat(5, () => frame(5000)),
      ),
    ).toEqual([]);
    const next = feed(
      d,
      repeat(8, () => frame(0)),
    );
    d.waitFor(event.pause, 5000);
    expect(next.map((e) => e.type)).toEqual(['pause']);
    // a complete request: a wait already exceeded ends the utterance at the next frame
    const last = (next[0] as { pause: number }).pause;
    d.waitFor(last, 100);
    // ...naming the pause that ended it (its recognition is the utterance's: nothing was said since)
    expect(feed(d, [frame(0)])).toEqual([{ type: 'utterance', pcm: expect.any(Int16Array), pause: last }]);
  });

  it('ends an utterance that goes on too long', () => {
    const d = new UtteranceDetector({ endSilenceMs: 400, maxUtteranceMs: 1000 });
    expect(
      feed(
        d,
        repeat(52, () => frame(5000)),
      ).map((e) => e.type),
    ).toEqual(['speech-start', 'utterance']);
  });

  it('property: every speech-start is followed by exactly one end, and ends never come without a start', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.boolean(), fc.integer({ min: 1, max: 40 })), { maxLength: 30 }), (runs) => {
        const d = new UtteranceDetector({ endSilenceMs: 200, maxUtteranceMs: 3000 });
        const frames = runs.flatMap(([loud, n]) => repeat(n, () => (loud ? LOUD : QUIET)));
        const types = feed(d, [...frames, ...repeat(20, () => QUIET)]).map((e) => e.type);
        let open = false;
        for (const t of types) {
          if (t === 'speech-start') {
            expect(open).toBe(false);
            open = true;
          } else {
            expect(open).toBe(true);
            open = false;
          }
        }
        expect(open).toBe(false);
      }),
      { numRuns: 300 },
    );
  });
});
