import { describePauses, watchPauses } from '../../bench/lib/pause-watch';

const settle = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('bench pause watch', () => {
  it('reports a stretch the event loop was held, and nothing for a quiet loop', async () => {
    const quiet = watchPauses(200);
    await settle(50);
    expect(quiet().pauses).toEqual([]);

    const stop = watchPauses(25);
    await settle(20);
    const until = Date.now() + 80;
    while (Date.now() < until); // the loop held for 80 ms
    await settle(20);
    const report = stop();
    expect(report.pauses).toHaveLength(1);
    expect(report.pauses[0]).toBeGreaterThanOrEqual(75);
    expect(describePauses(report)).toMatch(/^GC: .*; loop pauses over 25 ms: \d+$/);
  });

  it('counts collections by kind', () => {
    const text = describePauses({ gc: { scavenge: { count: 65, totalMs: 277.2, maxMs: 5.66 } }, pauses: [] });
    expect(text).toBe('GC: scavenge 65 (277 ms, max 5.7); loop pauses over 25 ms: none');
  });
});
