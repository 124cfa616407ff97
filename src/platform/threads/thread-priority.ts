import fs from 'node:fs';
import os from 'node:os';

/**
 * Makes the calling thread yield to the others of the process: on Linux, setpriority() on pid 0
 * applies to the calling thread alone (each thread is its own task), so a worker doing background
 * work stops preempting the event loop each time a message wakes it. `niceness` is added to the
 * thread's current nice value (0–19; raising it needs no privilege). Best effort: where the OS
 * refuses, the thread keeps its priority.
 */
export function lowerThisThreadsPriority(niceness: number): void {
  if (niceness <= 0) return;
  try {
    os.setPriority(0, Math.min(19, os.getPriority(0) + niceness));
  } catch {
    // not permitted or not supported here: run at the process's priority
  }
}

/** The calling thread's kernel task id (Linux: /proc/thread-self), or null where there is none. */
export function currentThreadId(): number | null {
  try {
    const link = fs.readlinkSync('/proc/thread-self'); // `<pid>/task/<tid>`
    const id = Number(link.slice(link.lastIndexOf('/') + 1));
    return Number.isInteger(id) ? id : null;
  } catch {
    return null;
  }
}
