/** Median: robust to the one run a noisy neighbour slowed down. */
export function median(values: number[]): number {
  if (values.length === 0) throw new RangeError('median of nothing');
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

/** Seconds since `start` (from process.hrtime.bigint()). */
export function secondsSince(start: bigint): number {
  return Number(process.hrtime.bigint() - start) / 1e9;
}

/**
 * Times `count` units of work. Only `work` is timed; setup and teardown belong outside it.
 * Returns units per second.
 */
export async function perSecond(count: number, work: () => Promise<void> | void): Promise<number> {
  const start = process.hrtime.bigint();
  await work();
  return count / secondsSince(start);
}

/** Runs `once` `runs` times in a row and keeps every figure plus their median. */
export async function repeat(
  runs: number,
  once: (run: number) => Promise<number>,
): Promise<{ figure: number; runs: number[] }> {
  const figures: number[] = [];
  for (let run = 0; run < runs; run++) figures.push(await once(run));
  return { figure: median(figures), runs: figures };
}

/** Rejects if `promise` has not settled within `ms`: no awaited loop of the bench can hang the run. */
export async function withDeadline<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what}: no result after ${ms / 1000} s`)), ms);
  });
  try {
    return await Promise.race([promise, deadline]);
  } finally {
    clearTimeout(timer);
  }
}
