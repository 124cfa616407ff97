import type { RecordedEvent } from '../event-store.port';
import { sqlitePosition } from './rows';
import { TailWindow } from './tail-window';

const event = (p: number): RecordedEvent => ({
  id: `e${p}`,
  streamId: 's',
  revision: BigInt(p),
  position: sqlitePosition(p),
  type: 'T',
  data: { p },
  metadata: {} as RecordedEvent['metadata'],
});
const events = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => event(from + i));
const positionOf = (e: RecordedEvent) => (e.data as { p: number }).p;
const ps = (list: RecordedEvent[] | null) => list?.map(positionOf) ?? null;

describe('TailWindow', () => {
  it('answers reads inside it, from any position, up to a limit', () => {
    const w = new TailWindow(100);
    w.keep(0, events(1, 10), positionOf);
    expect(ps(w.after(0, -1))).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    expect(ps(w.after(6, -1))).toEqual([7, 8, 9, 10]);
    expect(ps(w.after(2, 3))).toEqual([3, 4, 5]);
    expect(ps(w.after(10, -1))).toEqual([]);
    expect(w.last).toBe(10);
  });

  it('cannot say anything about positions before its start or past its end', () => {
    const w = new TailWindow(100);
    expect(w.after(0, -1)).toBeNull();
    w.keep(20, events(21, 25), positionOf);
    expect(w.after(19, -1)).toBeNull();
    expect(ps(w.after(20, -1))).toEqual([21, 22, 23, 24, 25]);
    expect(w.after(26, -1)).toBeNull();
  });

  it('grows only by reads that continue it; any other read starts it again', () => {
    const w = new TailWindow(100);
    w.keep(0, events(1, 3), positionOf);
    w.keep(3, events(4, 6), positionOf);
    expect(ps(w.after(0, -1))).toEqual([1, 2, 3, 4, 5, 6]);
    w.keep(40, events(41, 42), positionOf);
    expect(w.after(5, -1)).toBeNull();
    expect(ps(w.after(40, -1))).toEqual([41, 42]);
  });

  it('keeps only the newest events past its capacity', () => {
    const w = new TailWindow(5);
    w.keep(0, events(1, 4), positionOf);
    w.keep(4, events(5, 8), positionOf);
    expect(ps(w.after(3, -1))).toEqual([4, 5, 6, 7, 8]);
    expect(w.after(2, -1)).toBeNull();
  });

  it('cuts the oldest in one go a quarter past its capacity, and never holds fewer than its capacity', () => {
    const w = new TailWindow(8);
    // the whole window: the read from just before its first event (earlier ones answer null)
    const held = (last: number) => {
      for (let after = 0; after < last; after++) if (w.after(after, -1)) return ps(w.after(after, -1))!;
      return [];
    };
    const sizes: number[] = [];
    for (let p = 1; p <= 40; p++) {
      w.keep(p - 1, events(p, p), positionOf);
      const window = held(p);
      expect(window[window.length - 1]).toBe(p);
      sizes.push(window.length);
    }
    expect(Math.max(...sizes)).toBe(10);
    expect(Math.min(...sizes.slice(7))).toBe(8);
    // it grew past its capacity and was cut back, more than once
    expect(sizes.filter((n, i) => i > 0 && n < sizes[i - 1]).length).toBeGreaterThan(1);
  });

  it('handles gaps between positions (positions ascend; they need not be dense)', () => {
    const w = new TailWindow(10);
    w.keep(0, [event(2), event(5), event(9)], positionOf);
    expect(ps(w.after(3, -1))).toEqual([5, 9]);
    expect(ps(w.after(5, -1))).toEqual([9]);
  });

  it('release lets go of what every reader has read, in cuts of at least 64 or a quarter, and keeps its last event', () => {
    const w = new TailWindow(10_000);
    w.keep(0, events(1, 400), positionOf);
    w.release(50); // 50 could go: under the cut
    expect(w.first).toBe(1);
    w.release(100);
    expect(w.first).toBe(101);
    expect(ps(w.after(100, 2))).toEqual([101, 102]);
    expect(w.after(99, -1)).toBeNull(); // the released ones are the file's to answer now
    w.release(Number.POSITIVE_INFINITY); // nobody reads it: only the end is kept, so commits still continue it
    expect(w.size).toBe(1);
    expect(w.last).toBe(400);
    w.keep(400, events(401, 402), positionOf);
    expect(ps(w.after(400, -1))).toEqual([401, 402]);
  });
});
