import fc from 'fast-check';
import { JitterBuffer } from './jitter-buffer';

const SILENCE = -1;
const drain = (buffer: JitterBuffer<number>) => {
  const out: number[] = [];
  for (let frame = buffer.pop(); frame !== null; frame = buffer.pop()) out.push(frame);
  return out;
};

describe('JitterBuffer', () => {
  it('holds until primed, then plays in sequence order', () => {
    const buffer = new JitterBuffer<number>(3, () => SILENCE);
    buffer.push(11, 11);
    buffer.push(10, 10);
    expect(buffer.pop()).toBeNull();
    buffer.push(12, 12);
    expect(drain(buffer)).toEqual([10, 11, 12]);
  });

  it('drops duplicates and frames whose turn has passed', () => {
    const buffer = new JitterBuffer<number>(1, () => SILENCE);
    expect(buffer.push(5, 5)).toBe(true);
    expect(buffer.push(5, 5)).toBe(false);
    expect(buffer.pop()).toBe(5);
    expect(buffer.push(4, 4)).toBe(false);
    expect(buffer.push(5, 5)).toBe(false);
  });

  it('fills a gap with comfort silence', () => {
    const buffer = new JitterBuffer<number>(2, () => SILENCE);
    buffer.push(1, 1);
    buffer.push(3, 3);
    expect(drain(buffer)).toEqual([1, SILENCE, 3]);
  });

  it('follows the sequence number across its wrap', () => {
    const buffer = new JitterBuffer<number>(2, () => SILENCE);
    buffer.push(65535, 1);
    buffer.push(0, 2);
    buffer.push(1, 3);
    expect(drain(buffer)).toEqual([1, 2, 3]);
  });

  it('properties: any arrival order of a run plays the run in order, each frame once, with silence only for losses', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 65535 }),
        fc.integer({ min: 1, max: 40 }),
        fc.integer({ min: 1, max: 5 }),
        fc.func(fc.boolean()),
        fc.array(fc.nat(), { maxLength: 40 }),
        (start, length, depth, lost, swaps) => {
          const sequences = Array.from({ length }, (_, i) => (start + i) & 0xffff);
          const arriving = sequences.filter((s, i) => i === 0 || !lost(s));
          // shuffle everything but the first (the stream starts at its first packet)
          const rest = arriving.slice(1);
          swaps.forEach((n, i) => {
            if (rest.length < 2) return;
            const a = i % rest.length;
            const b = n % rest.length;
            [rest[a], rest[b]] = [rest[b], rest[a]];
          });
          const buffer = new JitterBuffer<number>(depth, () => SILENCE);
          for (const s of [arriving[0], ...rest, ...rest]) buffer.push(s, s);
          const played = drain(buffer);
          const expected = sequences
            .slice(
              0,
              sequences.indexOf(
                arriving.reduce((last, s) => (((s - start) & 0xffff) > ((last - start) & 0xffff) ? s : last)),
              ) + 1,
            )
            .map((s) => (arriving.includes(s) ? s : SILENCE));
          if (arriving.length < depth) expect(played).toEqual([]);
          else expect(played).toEqual(expected);
        },
      ),
      { numRuns: 500 },
    );
  });
});
