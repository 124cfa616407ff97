import { attribute, HARNESS, IDLE, OUTSIDE_TURN, type CpuProfile } from './stages';

/** The CPU of threads no profile covers: the collector's helpers, libuv's pool, the inspector's. */
export const UNPROFILED = 'threads not profiled (GC helpers, libuv pool)';
/** V8 names a CPU profiler's sampling thread so: the measuring's own cost, not the turn's. */
const SAMPLER_THREAD = /^v8:ProfEvntProc/;
const SAMPLERS = "profiler's sampling threads, CPU";

interface ThreadBreakdown {
  thread: string;
  /** µs per turn by stage: the thread's CPU split by the profile's shares (wall µs when its CPU is unknown) */
  perTurn: Record<string, number>;
  /** the turn's work on this thread, µs per turn (the sum of perTurn) */
  busyPerTurn: number;
  /** the thread's CPU per turn from /proc, null when unknown */
  cpuPerTurn: number | null;
  /** wall µs per turn the profile saw the thread at the turn's work (neither idle nor the harness) */
  wallPerTurn: number;
  /** wall µs per turn the profile saw the thread idle */
  idlePerTurn: number;
  /** wall µs per turn of the bench's own frames (starting the profiler) */
  harnessPerTurn: number;
  /** the profile's span, the sum of its samples and the sum of its stages (µs, whole window) */
  windowUs: number;
  sampledUs: number;
  stagesUs: number;
}

export interface Breakdown {
  turns: number;
  threads: ThreadBreakdown[];
  /** CPU per turn of the process's threads no profile covers (null when /proc is not there) */
  unprofiledPerTurn: number | null;
  /** CPU per turn of the profilers' own sampling threads: not the turn's */
  samplersPerTurn: number | null;
  /** the whole turn, µs per turn: every profiled thread's stages and the unprofiled threads */
  busyPerTurn: number;
  /** every profile's samples land in a stage and cover its window, but for a tail no longer than its longest gap */
  sumCheck: { ok: boolean; worst: string };
}

export interface ProfiledThread {
  thread: string;
  entry: string;
  tid: number | null;
  profile: CpuProfile;
}

/**
 * Divides each thread's attributed profile by the turns completed in the profiled window. The
 * profiler samples wall time: a thread waiting for a core on a loaded machine, or blocked in a
 * syscall (an fsync), is sampled as busy in whatever called it. So where /proc gives a thread's
 * CPU over the window (`cpuMsByTid`), that CPU is split by the profile's shares of its busy time:
 * µs of CPU by stage, whose rows add up to the thread's CPU.
 */
export function breakdown(
  threads: ProfiledThread[],
  turns: number,
  root: string,
  intervalUs: number,
  cpuByTid: Map<number, { name: string; ms: number }> | null = null,
): Breakdown {
  const seen = new Map<string, number>();
  const rows = threads.map(({ thread, entry, tid, profile }): ThreadBreakdown => {
    const count = (seen.get(thread) ?? 0) + 1;
    seen.set(thread, count);
    const { stages, sampledUs, windowUs } = attribute(profile, root, entry || undefined);
    let wall = 0;
    let stagesUs = 0;
    for (const [stage, us] of stages) {
      stagesUs += us;
      if (!OUTSIDE_TURN.has(stage)) wall += us;
    }
    const cpuMs = tid === null ? undefined : cpuByTid?.get(tid)?.ms;
    const cpuPerTurn = cpuMs === undefined ? null : (cpuMs * 1000) / turns;
    const scale = cpuPerTurn === null ? 1 / turns : wall > 0 ? cpuPerTurn / wall : 0;
    const perTurn: Record<string, number> = {};
    for (const [stage, us] of stages) if (!OUTSIDE_TURN.has(stage)) perTurn[stage] = us * scale;
    return {
      thread: count > 1 ? `${thread}#${count}` : thread,
      perTurn,
      busyPerTurn: cpuPerTurn ?? wall / turns,
      cpuPerTurn,
      wallPerTurn: wall / turns,
      idlePerTurn: (stages.get(IDLE) ?? 0) / turns,
      harnessPerTurn: (stages.get(HARNESS) ?? 0) / turns,
      windowUs,
      sampledUs,
      stagesUs,
    };
  });
  let unprofiledPerTurn: number | null = null;
  let samplersPerTurn: number | null = null;
  if (cpuByTid) {
    const profiledTids = new Set(threads.map((t) => t.tid));
    let ms = 0;
    let samplers = 0;
    for (const [tid, { name, ms: used }] of cpuByTid)
      if (SAMPLER_THREAD.test(name)) samplers += used;
      else if (!profiledTids.has(tid)) ms += used;
    unprofiledPerTurn = (ms * 1000) / turns;
    samplersPerTurn = (samplers * 1000) / turns;
  }
  let worst = -1;
  let worstText = 'none';
  let ok = true;
  for (const [i, row] of rows.entries()) {
    // every sample in one stage (to rounding), and the samples cover the window up to its unsampled
    // tail: after a thread's last sample, no longer than its longest gap between two samples (an idle
    // thread is sampled sparsely)
    const longestGap = Math.max(0, ...threads[i].profile.timeDeltas);
    const tail = row.windowUs - row.sampledUs;
    const allowed = Math.max(2 * intervalUs, longestGap) + row.windowUs * 0.001;
    if (Math.abs(row.stagesUs - row.sampledUs) > 1 || tail < -intervalUs || tail > allowed) ok = false;
    const missing = Math.abs(row.stagesUs - row.sampledUs) + Math.abs(tail);
    if (missing > worst) {
      worst = missing;
      worstText = `${row.thread}: ${Math.round(missing)} µs of ${Math.round(row.windowUs)} µs`;
    }
  }
  return {
    turns,
    threads: rows,
    unprofiledPerTurn,
    samplersPerTurn,
    busyPerTurn: rows.reduce((sum, row) => sum + row.busyPerTurn, 0) + (unprofiledPerTurn ?? 0),
    sumCheck: { ok, worst: worstText },
  };
}

function us(value: number | null | undefined): string {
  if (value === undefined || value === null || value === 0) return '-';
  return value < 10 ? value.toFixed(1) : Math.round(value).toLocaleString('en-US');
}

/**
 * The breakdown as a text table: a row per stage (largest first), a column per thread, then the
 * unprofiled threads and the sum; under the total, what the profiles saw in wall time.
 */
export function breakdownTable(b: Breakdown): string {
  const threads = b.threads.filter((t) => t.busyPerTurn > 0 || t.thread === 'main');
  const totals = new Map<string, number>();
  for (const t of threads)
    for (const [stage, value] of Object.entries(t.perTurn)) totals.set(stage, (totals.get(stage) ?? 0) + value);
  if (b.unprofiledPerTurn !== null) totals.set(UNPROFILED, b.unprofiledPerTurn);
  const ordered = [...totals.entries()].sort((x, y) => y[1] - x[1]).map(([stage]) => stage);
  const cpu = threads.some((t) => t.cpuPerTurn !== null);
  const header = [cpu ? 'CPU µs per turn, by stage' : 'wall µs per turn, by stage', ...threads.map((t) => t.thread)];
  if (b.unprofiledPerTurn !== null) header.push('others');
  header.push('all', 'share');
  const row = (
    label: string,
    pick: (t: ThreadBreakdown) => number | null | undefined,
    others: number | null,
    share = true,
  ) => {
    const values = threads.map(pick);
    const all = values.reduce<number>((sum, v) => sum + (v ?? 0), 0) + (others ?? 0);
    const cells = [label, ...values.map(us)];
    if (b.unprofiledPerTurn !== null) cells.push(us(others));
    cells.push(us(all), share && b.busyPerTurn > 0 ? `${((all / b.busyPerTurn) * 100).toFixed(1)}%` : '');
    return cells;
  };
  const body = [
    ...ordered.map((stage) => row(stage, (t) => t.perTurn[stage], stage === UNPROFILED ? b.unprofiledPerTurn : null)),
    row('= the turn (the rows above)', (t) => t.busyPerTurn, b.unprofiledPerTurn),
    row('profiled wall time at the turn', (t) => t.wallPerTurn, null, false),
    row('profiled wall time idle', (t) => t.idlePerTurn, null, false),
    row(`${HARNESS}, wall`, (t) => t.harnessPerTurn, null, false),
    ...(b.samplersPerTurn === null ? [] : [row(SAMPLERS, () => null, b.samplersPerTurn, false)]),
  ];
  const widths = header.map((h, i) => Math.max(h.length, ...body.map((r) => r[i].length)));
  const line = (cells: string[]) =>
    cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join('  ');
  return [line(header), widths.map((w) => '-'.repeat(w)).join('  '), ...body.map(line)].join('\n');
}
