import fs from 'node:fs';
import { performance } from 'node:perf_hooks';

/**
 * How fast this shared machine was while a run went on. On a shared VM the same build's latency
 * tails move severalfold within an hour: the figures are only comparable next to the machine's own
 * state. Two readings, each cheap:
 * - a fixed JavaScript loop timed at the start and at the end (the CPU we are given, one core);
 * - the share of CPU time the hypervisor gave to other tenants meanwhile (`steal` in /proc/stat).
 */
export interface MachineConditions {
  /** ms for CALIBRATION_ITERATIONS additions, best of 5, at the run's start and end */
  calibrationMs: { start: number; end: number };
  /** percent of all CPU time over the run that was stolen (null without /proc/stat) */
  stealPercent: number | null;
  /** percent of all CPU time over the run that was busy, ours and the machine's other work (null without /proc/stat) */
  busyPercent: number | null;
}

/** Enough additions to time well at the start and end of a short run, and still cheap. */
export const CALIBRATION_ITERATIONS = 20_000_000;

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

/** Starts watching; the returned function ends the watch with a second calibration. */
export function watchMachine(): () => MachineConditions {
  const start = calibrate();
  const before = readCpuTimes();
  return () => {
    const after = readCpuTimes();
    return { calibrationMs: { start, end: calibrate() }, ...sharesBetween(before, after) };
  };
}

/** One line for the report's header. */
export function describeConditions(c: MachineConditions): string {
  const share = (label: string, value: number | null) =>
    value === null ? `${label} unknown` : `${label} ${value.toFixed(1)}%`;
  return `calibration loop ${c.calibrationMs.start.toFixed(1)} ms at start, ${c.calibrationMs.end.toFixed(1)} ms at end; CPU over the run: ${share('busy', c.busyPercent)}, ${share('stolen', c.stealPercent)}`;
}
