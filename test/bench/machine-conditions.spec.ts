import {
  calibrate,
  describeConditions,
  loopbackRoundTripUs,
  parseCpuTimes,
  sharesBetween,
  watchMachine,
} from '../../bench/lib/machine-conditions';

describe('bench machine conditions', () => {
  const stat = (user: number, idle: number, iowait: number, steal: number) =>
    `cpu  ${user} 0 100 ${idle} ${iowait} 5 5 ${steal} 0 0\ncpu0 1 2 3 4 5 6 7 8 0 0\nintr 1 2 3\n`;

  it('reads the aggregate cpu line of /proc/stat, counting iowait as idle and steal in the total', () => {
    expect(parseCpuTimes(stat(1000, 5000, 100, 50))).toEqual({
      idle: 5100,
      steal: 50,
      total: 1000 + 100 + 5000 + 100 + 5 + 5 + 50,
    });
    expect(parseCpuTimes('cpu0 1 2 3\n')).toBeNull();
    expect(parseCpuTimes('cpu  a b c d e f g h\n')).toBeNull();
  });

  it('gives the stolen and busy shares between two readings', () => {
    const before = parseCpuTimes(stat(1000, 5000, 0, 0));
    // 1,000 jiffies later: 600 user, 300 idle, 100 stolen
    const after = parseCpuTimes(stat(1600, 5300, 0, 100));
    expect(sharesBetween(before, after)).toEqual({ stealPercent: 10, busyPercent: 70 });
    expect(sharesBetween(null, after)).toEqual({ stealPercent: null, busyPercent: null });
    expect(sharesBetween(after, after)).toEqual({ stealPercent: null, busyPercent: null });
  });

  it('times the calibration loop, and a watch reports both ends and the shares', async () => {
    const short = calibrate(1_000_000);
    expect(short).toBeGreaterThan(0);
    expect(calibrate(8_000_000)).toBeGreaterThan(short);
    const conditions = await (await watchMachine())();
    expect(conditions.calibrationMs.start).toBeGreaterThan(0);
    expect(conditions.calibrationMs.end).toBeGreaterThan(0);
    expect(conditions.loopbackUs?.start).toBeGreaterThan(0);
    expect(conditions.loopbackUs?.end).toBeGreaterThan(0);
    if (conditions.busyPercent !== null) expect(conditions.busyPercent).toBeGreaterThanOrEqual(0);
    expect(
      describeConditions({
        calibrationMs: { start: 24.06, end: 31.2 },
        loopbackUs: { start: 21.04, end: 35.66 },
        stealPercent: 3.04,
        busyPercent: 71.96,
      }),
    ).toBe(
      'calibration loop 24.1 ms at start, 31.2 ms at end; loopback round trip 21.0 µs at start, 35.7 µs at end; CPU over the run: busy 72.0%, stolen 3.0%',
    );
    expect(
      describeConditions({
        calibrationMs: { start: 1, end: 1 },
        loopbackUs: null,
        stealPercent: null,
        busyPercent: null,
      }),
    ).toMatch(/loopback round trip unknown; CPU over the run: busy unknown, stolen unknown$/);
  });

  it('times a one-byte round trip over loopback, in µs', async () => {
    const perTrip = await loopbackRoundTripUs(200);
    expect(perTrip).toBeGreaterThan(0);
    // a round trip is at least two system calls: well over a microsecond on any machine
    expect(perTrip).toBeGreaterThan(1);
    expect(perTrip).toBeLessThan(100_000);
  });
});
