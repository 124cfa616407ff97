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
  const dir = process.env.BENCH_CPU_PROFILE;
  if (!dir) return async () => undefined;
  const session = new Session();
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.setSamplingInterval', { interval: Number(process.env.BENCH_CPU_PROFILE_INTERVAL_US) || 200 });
  await session.post('Profiler.start');
  return async () => {
    const { profile } = await session.post('Profiler.stop');
    session.disconnect();
    fs.mkdirSync(dir, { recursive: true });
    const file = path.join(dir, `${label.replace(/[^\w.-]+/g, '_')}.${Date.now()}.cpuprofile`);
    fs.writeFileSync(file, JSON.stringify(profile));
    process.stderr.write(`  · cpu profile of ${label}: ${file}\n`);
  };
}
