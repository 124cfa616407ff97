import fs from 'node:fs';
import net from 'node:net';
import { performance } from 'node:perf_hooks';

/**
 * How fast this shared machine was while a run went on. On a shared VM the same build's latency
 * tails move severalfold within an hour: the figures are only comparable next to the machine's own
 * state. Two readings, each cheap:
 * - a fixed JavaScript loop timed at the start and at the end (the CPU we are given, one core);
 * - the share of CPU time the hypervisor gave to other tenants meanwhile (`steal` in /proc/stat);
 * - a one-byte TCP round trip over loopback at the start and at the end: the kernel's share of
 *   every HTTP figure (system calls, the loopback device, waking a socket's reader), which the loop
 *   does not see: the HTTP echo has halved while the loop read the same (bench/README.md).
 */
export interface MachineConditions {
  /** ms for CALIBRATION_ITERATIONS additions, best of 5, at the run's start and end */
  calibrationMs: { start: number; end: number };
  /** µs per one-byte TCP round trip on 127.0.0.1, best of 5 × LOOPBACK_ROUND_TRIPS, at start and end (null if it could not run) */
  loopbackUs: { start: number; end: number } | null;
  /** percent of all CPU time over the run that was stolen (null without /proc/stat) */
  stealPercent: number | null;
  /** percent of all CPU time over the run that was busy, ours and the machine's other work (null without /proc/stat) */
  busyPercent: number | null;
}

/** Enough additions to time well at the start and end of a short run, and still cheap. */
const CALIBRATION_ITERATIONS = 20_000_000;

export interface CpuTimes {
  idle: number;
  steal: number;
  total: number;
}

/** The aggregate `cpu` line of /proc/stat (jiffies): idle counts iowait, total counts steal. */
export function parseCpuTimes(procStat: string): CpuTimes | null {
  const line = procStat.split('\n').find((l) => l.startsWith('cpu '));
  if (!line) return null;
  const [user, nice, system, idle, iowait, irq, softirq, steal] = line.trim().split(/\s+/).slice(1).map(Number);
  if ([user, nice, system, idle, iowait, irq, softirq, steal].some((n) => !Number.isFinite(n))) return null;
  return { idle: idle + iowait, steal, total: user + nice + system + idle + iowait + irq + softirq + steal };
}

/** Stolen and busy shares between two readings, in percent (busy includes stolen). */
export function sharesBetween(
  before: CpuTimes | null,
  after: CpuTimes | null,
): { stealPercent: number | null; busyPercent: number | null } {
  const total = before && after ? after.total - before.total : 0;
  if (!before || !after || total <= 0) return { stealPercent: null, busyPercent: null };
  return {
    stealPercent: (100 * (after.steal - before.steal)) / total,
    busyPercent: (100 * (total - (after.idle - before.idle))) / total,
  };
}

function readCpuTimes(): CpuTimes | null {
  try {
    return parseCpuTimes(fs.readFileSync('/proc/stat', 'utf8'));
  } catch {
    return null;
  }
}

/** The best of five timings of a fixed loop, in ms: the least disturbed one. */
export function calibrate(iterations = CALIBRATION_ITERATIONS): number {
  let best = Number.POSITIVE_INFINITY;
  for (let round = 0; round < 5; round++) {
    const started = performance.now();
    let sum = 0;
    for (let i = 0; i < iterations; i++) sum += i;
    const ms = performance.now() - started;
    // the sum is used, so the loop is not optimised away
    if (sum < 0) throw new Error('unreachable');
    best = Math.min(best, ms);
  }
  return best;
}

/** Round trips per timing: enough to time a few ms, cheap beside any case. */
const LOOPBACK_ROUND_TRIPS = 2_000;

/**
 * The best of five timings of `roundTrips` one-byte ping-pongs between a client and a server on
 * 127.0.0.1 in this process, in µs per round trip: two writes, two reads and two wake-ups of the
 * event loop through the kernel, which is what an HTTP request costs beyond its JavaScript.
 */
export async function loopbackRoundTripUs(roundTrips = LOOPBACK_ROUND_TRIPS): Promise<number> {
  const server = net.createServer((socket) => {
    socket.setNoDelay(true);
    socket.on('data', (chunk) => socket.write(chunk));
    socket.on('error', () => socket.destroy());
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as net.AddressInfo;
  const client = net.connect(port, '127.0.0.1');
  client.setNoDelay(true);
  try {
    await new Promise<void>((resolve, reject) => {
      client.once('connect', () => resolve());
      client.once('error', reject);
    });
    let best = Number.POSITIVE_INFINITY;
    const one = Buffer.from([1]);
    for (let round = 0; round < 5; round++) {
      const started = performance.now();
      await new Promise<void>((resolve, reject) => {
        let left = roundTrips;
        const onData = (chunk: Buffer) => {
          left -= chunk.length;
          if (left > 0) return void client.write(one);
          client.off('data', onData);
          client.off('error', reject);
          resolve();
        };
        client.on('data', onData);
        client.once('error', reject);
        client.write(one);
      });
      best = Math.min(best, ((performance.now() - started) * 1000) / roundTrips);
    }
    return best;
  } finally {
    client.destroy();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}

async function loopbackOrNull(): Promise<number | null> {
  try {
    return await loopbackRoundTripUs();
  } catch {
    return null;
  }
}

/** Starts watching; the returned function ends the watch with a second calibration. */
export async function watchMachine(): Promise<() => Promise<MachineConditions>> {
  const start = calibrate();
  const loopbackStart = await loopbackOrNull();
  const before = readCpuTimes();
  return async () => {
    const after = readCpuTimes();
    const loopbackEnd = await loopbackOrNull();
    return {
      calibrationMs: { start, end: calibrate() },
      loopbackUs: loopbackStart !== null && loopbackEnd !== null ? { start: loopbackStart, end: loopbackEnd } : null,
      ...sharesBetween(before, after),
    };
  };
}

/** One line for the report's header. */
export function describeConditions(c: MachineConditions): string {
  const share = (label: string, value: number | null) =>
    value === null ? `${label} unknown` : `${label} ${value.toFixed(1)}%`;
  const loopback = c.loopbackUs
    ? `loopback round trip ${c.loopbackUs.start.toFixed(1)} µs at start, ${c.loopbackUs.end.toFixed(1)} µs at end`
    : 'loopback round trip unknown';
  return `calibration loop ${c.calibrationMs.start.toFixed(1)} ms at start, ${c.calibrationMs.end.toFixed(1)} ms at end; ${loopback}; CPU over the run: ${share('busy', c.busyPercent)}, ${share('stolen', c.stealPercent)}`;
}
