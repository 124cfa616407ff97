import fs from 'node:fs';

/**
 * The default of HTTP_MAX_CONNECTIONS: 80% of the process's open-file limit (Linux reports it in
 * /proc/self/limits), leaving the rest to the stores, logs, SIP and outbound calls; 0 (no limit)
 * where the limit cannot be read.
 */
export function defaultMaxConnections(limits = '/proc/self/limits'): number {
  try {
    const line = fs
      .readFileSync(limits, 'utf8')
      .split('\n')
      .find((l) => l.startsWith('Max open files'));
    const soft = Number(line?.split(/\s{2,}/)[1]);
    return Number.isFinite(soft) && soft > 0 ? Math.floor(soft * 0.8) : 0;
  } catch {
    return 0;
  }
}
