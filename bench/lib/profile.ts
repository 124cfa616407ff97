import fs from 'node:fs';
import path from 'node:path';
import { Session } from 'node:inspector/promises';

/**
 * `BENCH_CPU_PROFILE=<dir>`: a CPU profile of one measured phase (the server side of a load, say),
 * written as `<dir>/<label>.cpuprofile` for Chrome DevTools or any .cpuprofile reader. Unlike
 * `node --cpu-prof`, it leaves out the seeding and warm-up around the phase. Unset, it only runs
 * the phase. Profiling slows the process, so figures from a profiled run are not comparable.
 */
export async function profiled<T>(label: string, phase: () => Promise<T>): Promise<T> {
  const stop = await startProfile(label);
  try {
    return await phase();
  } finally {
    await stop();
  }
}

/** profiled for a phase whose bounds are events rather than one call: resolves with its stop. */
export async function startProfile(label: string): Promise<() => Promise<void>> {
  if (process.env.BENCH_ALLOC_PROFILE) return startAllocationProfile(label, process.env.BENCH_ALLOC_PROFILE);
  const dir = process.env.BENCH_CPU_PROFILE;
  if (!dir) return async () => undefined;
  const session = new Session();
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.setSamplingInterval', {
    interval: Number(process.env.BENCH_CPU_PROFILE_INTERVAL_US) || 200,
  });
  await session.post('Profiler.start');
  return async () => {
    const { profile } = await session.post('Profiler.stop');
    session.disconnect();
    writeProfile(dir, label, 'cpu', profile);
  };
}

/**
 * `BENCH_ALLOC_PROFILE=<dir>` (instead of a CPU profile): where the phase allocates, sampled, the
 * objects young collections freed included (they are what makes scavenges frequent), written as
 * `<dir>/<label>.heapprofile` for Chrome DevTools' memory panel.
 */
async function startAllocationProfile(label: string, dir: string): Promise<() => Promise<void>> {
  const session = new Session();
  session.connect();
  await session.post('HeapProfiler.enable');
  await session.post('HeapProfiler.startSampling', {
    samplingInterval: 16_384,
    includeObjectsCollectedByMajorGC: true,
    includeObjectsCollectedByMinorGC: !process.env.BENCH_ALLOC_PROMOTED,
  });
  return async () => {
    const { profile } = await session.post('HeapProfiler.stopSampling');
    session.disconnect();
    writeProfile(dir, label, 'heap', profile);
  };
}

function writeProfile(dir: string, label: string, kind: 'cpu' | 'heap', profile: unknown): void {
  fs.mkdirSync(dir, { recursive: true });
  const file = path.join(dir, `${label.replace(/[^\w.-]+/g, '_')}.${Date.now()}.${kind}profile`);
  fs.writeFileSync(file, JSON.stringify(profile));
  process.stderr.write(`  · ${kind === 'cpu' ? 'cpu' : 'allocation'} profile of ${label}: ${file}\n`);
}
