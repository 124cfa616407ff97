import fs from 'node:fs';
import { PerformanceObserver, performance } from 'node:perf_hooks';

/** V8's GC kinds as `gc` performance entries name them (perf_hooks constants). */
const GC_KINDS: Record<number, string> = { 1: 'scavenge', 2: 'mark-compact', 4: 'incremental', 8: 'weak callbacks' };

export interface PauseReport {
  /** per GC kind: how many, their total and longest pause (ms) */
  gc: Record<string, { count: number; totalMs: number; maxMs: number }>;
  /** every stretch longer than `overMs` in which a 5 ms ticker did not run (ms, in order) */
  pauses: number[];
  /**
   * For each pause, how much of it the thread ran and how much it waited for a core (ms, from
   * /proc/thread-self/schedstat); null where the kernel does not tell.
   */
  split: Array<{ ranMs: number; waitedMs: number }> | null;
}

/**
 * A reader of the calling thread's time on a CPU and waiting on a run queue (ns), or null without
 * schedstat. The file stays open and each read is one pread: the ticker reads it every 5 ms on the
 * server's event loop, where opening it each time cost ~1% of the loop (a CPU profile of the paced
 * external-events series).
 */
function schedReader(): { read: () => [number, number]; close: () => void } | null {
  let fd: number;
  try {
    fd = fs.openSync('/proc/thread-self/schedstat', 'r');
  } catch {
    return null;
  }
  const buffer = Buffer.alloc(128);
  return {
    read: () => {
      const [ran, waited] = buffer.toString('latin1', 0, fs.readSync(fd, buffer, 0, buffer.length, 0)).split(' ');
      return [Number(ran), Number(waited)];
    },
    close: () => fs.closeSync(fd),
  };
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
  const reader = schedReader();
  let sched = reader?.read() ?? null;
  const split: PauseReport['split'] = reader ? [] : null;
  let last = performance.now();
  const ticker = setInterval(() => {
    const now = performance.now();
    const nowSched = reader?.read() ?? null;
    if (now - last > overMs) {
      pauses.push(Math.round(now - last));
      if (split && sched && nowSched)
        split.push({ ranMs: (nowSched[0] - sched[0]) / 1e6, waitedMs: (nowSched[1] - sched[1]) / 1e6 });
    }
    last = now;
    sched = nowSched;
  }, 5);
  return () => {
    clearInterval(ticker);
    reader?.close();
    observer.disconnect();
    return { gc, pauses, split };
  };
}

/** One log line's worth: `scavenge 65 (277 ms, max 5.7)`, and the pauses. */
export function describePauses({ gc, pauses, split }: PauseReport, overMs = 25): string {
  const kinds = Object.entries(gc).map(
    ([kind, k]) => `${kind} ${k.count} (${Math.round(k.totalMs)} ms, max ${k.maxMs.toFixed(1)})`,
  );
  const each = pauses.map((ms, i) =>
    split?.[i] ? `${ms} (ran ${Math.round(split[i].ranMs)}, waited ${Math.round(split[i].waitedMs)})` : String(ms),
  );
  const waited =
    split && split.length > 0
      ? `; of the pauses' ${pauses.reduce((a, b) => a + b, 0)} ms the loop waited for a core ${Math.round(split.reduce((a, p) => a + p.waitedMs, 0))} ms`
      : '';
  return `GC: ${kinds.join(', ') || 'none'}; loop pauses over ${overMs} ms: ${each.length ? each.join(', ') : 'none'}${waited}`;
}
