import fs from 'node:fs';

/**
 * CPU time (ms) each thread of this process has used, by thread name (`node` is the main thread's
 * name; workers are named `node` too, so they are told apart by id). From /proc on Linux; null
 * elsewhere. Unlike throughput, the main thread's CPU per unit of work hardly moves when other
 * tenants of the machine take cores: it is the figure to compare two builds by.
 */
export function threadCpuMs(): Map<number, number> | null {
  const named = namedThreadCpuMs();
  return named && new Map([...named].map(([tid, { ms }]) => [tid, ms] as const));
}

/**
 * threadCpuMs with each thread's name (`node` for the main thread and the workers, `v8:ProfEvntProc`
 * for a CPU profiler's sampling thread, ...).
 */
export function namedThreadCpuMs(): Map<number, { name: string; ms: number }> | null {
  const dir = `/proc/${process.pid}/task`;
  if (!fs.existsSync(dir)) return null;
  const tick = 10; // USER_HZ is 100 on Linux
  const out = new Map<number, { name: string; ms: number }>();
  for (const tid of fs.readdirSync(dir)) {
    try {
      const stat = fs.readFileSync(`${dir}/${tid}/stat`, 'utf8');
      const name = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
      // the fields after the parenthesised name: utime and stime are the 12th and 13th
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      out.set(Number(tid), { name, ms: (Number(fields[11]) + Number(fields[12])) * tick });
    } catch {
      // the thread ended between the listing and the read
    }
  }
  return out;
}

/** CPU ms used during `phase` by the main thread and by all other threads of this process. */
export async function cpuDuring<T>(
  phase: () => Promise<T>,
): Promise<{ result: T; mainMs: number | null; othersMs: number | null }> {
  const before = threadCpuMs();
  const result = await phase();
  return { result, ...cpuBetween(before, threadCpuMs()) };
}

/** The CPU used between two threadCpuMs samples: the main thread's, and all the others' together. */
export function cpuBetween(
  before: Map<number, number> | null,
  after: Map<number, number> | null,
): { mainMs: number | null; othersMs: number | null } {
  if (!before || !after) return { mainMs: null, othersMs: null };
  let mainMs = 0;
  let othersMs = 0;
  for (const [tid, ms] of after) {
    const used = ms - (before.get(tid) ?? 0);
    if (tid === process.pid) mainMs += used;
    else othersMs += used;
  }
  return { mainMs, othersMs };
}
