/**
 * Runs `work` while a 2 ms timer ticks, and measures the longest the event loop went without
 * turning meanwhile: synchronous work that starves requests and timers shows up here.
 */
export async function longestPause<T>(work: () => Promise<T>): Promise<{ result: T; maxGapMs: number }> {
  let last = performance.now();
  let maxGapMs = 0;
  const ticker = setInterval(() => {
    const now = performance.now();
    maxGapMs = Math.max(maxGapMs, now - last);
    last = now;
  }, 2);
  try {
    last = performance.now();
    const result = await work();
    maxGapMs = Math.max(maxGapMs, performance.now() - last);
    return { result, maxGapMs };
  } finally {
    clearInterval(ticker);
  }
}
