import { describePauses, watchPauses } from '../../bench/lib/pause-watch';

const settle = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('bench pause watch', () => {
  it('reports a stretch the event loop was held, and nothing for a quiet loop', async () => {
    const quiet = watchPauses(200);
    await settle(50);
    expect(quiet().pauses).toEqual([]);

    const stop = watchPauses(25);
    await settle(20);
    // the loop held for 80 ms of wall time and at least 60 ms of CPU: on a loaded machine the spin
    // also waits for a core, and what it ran is what the split must report
    const until = Date.now() + 80;
    const cpuAtStart = process.cpuUsage();
    const ranMs = () => {
      const used = process.cpuUsage(cpuAtStart);
      return (used.user + used.system) / 1000;
    };
    while (Date.now() < until || ranMs() < 60);
    await settle(20);
    const report = stop();
    // the spin is the one pause of 75 ms or more; a loaded machine may add short ones of its own
    const held = report.pauses.findIndex((ms) => ms >= 75);
    expect(held).toBeGreaterThanOrEqual(0);
    expect(report.pauses.filter((ms) => ms >= 75)).toHaveLength(1);
    // the loop spun: it ran through the pause (Linux says so; elsewhere there is no split)
    if (report.split) {
      expect(report.split).toHaveLength(report.pauses.length);
      expect(report.split[held].ranMs).toBeGreaterThanOrEqual(40);
      expect(describePauses(report)).toMatch(
        /^GC: .*; loop pauses over 25 ms: \d+ \(ran \d+, waited \d+\)(, \d+ \(ran \d+, waited \d+\))*; of the pauses' \d+ ms the loop waited for a core \d+ ms$/,
      );
    } else expect(describePauses(report)).toMatch(/^GC: .*; loop pauses over 25 ms: \d+(, \d+)*$/);
  });

  it('counts collections by kind', () => {
    const text = describePauses({
      gc: { scavenge: { count: 65, totalMs: 277.2, maxMs: 5.66 } },
      pauses: [],
      split: null,
    });
    expect(text).toBe('GC: scavenge 65 (277 ms, max 5.7); loop pauses over 25 ms: none');
  });

  it('says how much of each pause the loop ran and how much it waited for a core', () => {
    const text = describePauses({
      gc: {},
      pauses: [48, 30],
      split: [
        { ranMs: 13.2, waitedMs: 34.6 },
        { ranMs: 29, waitedMs: 0.4 },
      ],
    });
    expect(text).toBe(
      "GC: none; loop pauses over 25 ms: 48 (ran 13, waited 35), 30 (ran 29, waited 0); of the pauses' 78 ms the loop waited for a core 35 ms",
    );
  });
});
