import fs from 'node:fs';
import os from 'node:os';

/** Threads other than the event loop whose delays are a request's (the event store's writer thread). */
const kept = new Set<number>();

/**
 * Keeps a thread at the event loop's priority when helper threads yield (yieldHelperThreads);
 * returns the release, for when the thread ends (its id may be reused). A null id (no /proc) is a no-op.
 */
export function keepThreadPriority(threadId: number | null): () => void {
  if (threadId === null) return () => undefined;
  kept.add(threadId);
  return () => kept.delete(threadId);
}

export function keptThreads(): ReadonlySet<number> {
  return kept;
}

/**
 * The event loop first: every other thread of this process that is not kept (V8's platform
 * workers, which mark and sweep concurrently and compile optimised code; libuv's pool; the
 * read-model apply, checkpointer and index threads) runs at least `niceness` below the main
 * thread. On a machine with a core to spare this changes nothing; when every core is taken, the
 * kernel lets the event loop (and the writer thread a commit waits on) preempt the background
 * work instead of queueing behind it. In the web chat bench (`npm run bench -- --only messaging`)
 * the event loop spent about half of its long pauses waiting for a core, and lowering the helpers
 * shortened the reply tail; 10 did best of the settings tried (bench/README.md). It helps; on a
 * shared machine it does not always make the tail.
 *
 * Linux only (setpriority on a thread id; lowering needs no privilege); elsewhere, and for a
 * thread the OS refuses, nothing changes. Returns how many threads it lowered.
 */
export function yieldHelperThreads(niceness: number): number {
  if (niceness <= 0) return 0;
  let ids: number[];
  try {
    ids = fs.readdirSync('/proc/self/task').map(Number);
  } catch {
    return 0;
  }
  let target: number;
  try {
    target = Math.min(19, os.getPriority(process.pid) + niceness);
  } catch {
    return 0;
  }
  let lowered = 0;
  for (const id of ids) {
    if (id === process.pid || kept.has(id)) continue;
    try {
      if (os.getPriority(id) >= target) continue;
      os.setPriority(id, target);
      lowered++;
    } catch {
      // the thread ended meanwhile, or the OS refused: it keeps its priority
    }
  }
  return lowered;
}
