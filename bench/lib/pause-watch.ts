import { PerformanceObserver, performance } from 'node:perf_hooks';

/** V8's GC kinds as `gc` performance entries name them (perf_hooks constants). */
const GC_KINDS: Record<number, string> = { 1: 'scavenge', 2: 'mark-compact', 4: 'incremental', 8: 'weak callbacks' };

export interface PauseReport {
  /** per GC kind: how many, their total and longest pause (ms) */
  gc: Record<string, { count: number; totalMs: number; maxMs: number }>;
  /** every stretch longer than `overMs` in which a 5 ms ticker did not run (ms, in order) */
  pauses: number[];
}

/**
 * Watches this process's event loop over a phase: every GC, and every pause long enough to show in
 * a latency tail. Says what the loop-delay histogram cannot: whether a long pause was a
 * collection, and how many there were. Returns the stop, which gives the report.
 */
export function watchPauses(overMs = 25): () => PauseReport {
  const gc: PauseReport['gc'] = {};
  const observer = new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) {
      const kind = GC_KINDS[(entry as { detail?: { kind?: number } }).detail?.kind ?? 0] ?? 'other';
      const k = (gc[kind] ??= { count: 0, totalMs: 0, maxMs: 0 });
      k.count++;
      k.totalMs += entry.duration;
      k.maxMs = Math.max(k.maxMs, entry.duration);
    }
  });
  observer.observe({ entryTypes: ['gc'] });
  const pauses: number[] = [];
  let last = performance.now();
  const ticker = setInterval(() => {
    const now = performance.now();
    if (now - last > overMs) pauses.push(Math.round(now - last));
    last = now;
  }, 5);
  return () => {
    clearInterval(ticker);
    observer.disconnect();
    return { gc, pauses };
  };
}

/** One log line's worth: `scavenge 65 (277 ms, max 5.7)`, and the pauses. */
export function describePauses({ gc, pauses }: PauseReport, overMs = 25): string {
  const kinds = Object.entries(gc).map(([kind, k]) => `${kind} ${k.count} (${Math.round(k.totalMs)} ms, max ${k.maxMs.toFixed(1)})`);
  return `GC: ${kinds.join(', ') || 'none'}; loop pauses over ${overMs} ms: ${pauses.length ? pauses.join(', ') : 'none'}`;
}
