import fs from 'node:fs';

const SCHEDSTAT = `/proc/self/task/${process.pid}/schedstat`;
const HAS_SCHEDSTAT = fs.existsSync(SCHEDSTAT);

/**
 * CPU time (ms) the main thread has used: from /proc on Linux (nanoseconds, this thread alone);
 * elsewhere the whole process's, worker threads included.
 */
function mainThreadCpuMs(): number {
  if (HAS_SCHEDSTAT) return Number(fs.readFileSync(SCHEDSTAT, 'utf8').split(' ')[0]) / 1e6;
  const usage = process.cpuUsage();
  return (usage.user + usage.system) / 1000;
}

export interface Pauses<T> {
  result: T;
  /** The longest wall-clock time between two turns of the loop. */
  maxGapMs: number;
  /**
   * The most CPU the main thread used between two turns of the loop: work that held the loop.
   * Unlike maxGapMs it does not count time the process waited for a core, which on a loaded
   * machine (CI running two test files, each with app processes of its own) took seconds.
   */
  maxBusyMs: number;
  /** The main thread's CPU over the whole of `work`. */
  cpuMs: number;
}

/** Runs `work` while a 2 ms timer ticks, measuring how long the event loop went without turning. */
export async function longestPause<T>(work: () => Promise<T>): Promise<Pauses<T>> {
  const startCpu = mainThreadCpuMs();
  let last = performance.now();
  let lastCpu = startCpu;
  let maxGapMs = 0;
  let maxBusyMs = 0;
  const turn = () => {
    const now = performance.now();
    const cpu = mainThreadCpuMs();
    maxGapMs = Math.max(maxGapMs, now - last);
    maxBusyMs = Math.max(maxBusyMs, cpu - lastCpu);
    last = now;
    lastCpu = cpu;
  };
  const ticker = setInterval(turn, 2);
  try {
    const result = await work();
    turn();
    return { result, maxGapMs, maxBusyMs, cpuMs: mainThreadCpuMs() - startCpu };
  } finally {
    clearInterval(ticker);
  }
}
