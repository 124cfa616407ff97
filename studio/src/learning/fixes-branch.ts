import type { components } from '../api/schema';

type Branch = components['schemas']['Branch'];

/**
 * The branch the learning loop suggests: one a day, `fixes/2030-01-31` (the browser's UTC date),
 * so the day's misses are reviewed and merged together. Once that one is merged (read-only, and
 * its name taken), `fixes/2030-01-31-2`, and so on. `open` is the day's branch when it is open,
 * else `name` is the one to cut from main. A suggestion: any open branch may be chosen.
 */
export function todaysFixes(branches: Branch[], now: Date): { name: string; open?: Branch } {
  const base = `fixes/${now.toISOString().slice(0, 10)}`;
  for (let n = 1; ; n++) {
    const name = n === 1 ? base : `${base}-${n}`;
    const branch = branches.find((b) => b.branchName === name);
    if (!branch) return { name };
    if (branch.status === 'open') return { name, open: branch };
  }
}
