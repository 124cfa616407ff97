import type { BenchContext } from './context';
import { median } from './measure';

/** One run's figure, with what else the run wants kept (e.g. appends per commit). */
export interface Sample {
  value: number;
  detail?: Record<string, unknown>;
}

export interface Series {
  figure: number;
  runs: number[];
  details: Array<Record<string, unknown> | undefined>;
}

export interface Contender {
  /** The case this contender's series is reported under; skipped when --only leaves it out. */
  caseName: string;
  runs: number;
  run(run: number): Promise<number | Sample>;
}

/**
 * Runs the contenders of a comparison in alternating rounds (A B, B A, A B, ...) instead of all
 * of A then all of B: on this shared machine the disk's fsync latency and the CPU left to us
 * drift over tens of seconds, and alternating makes both sides of a ratio see the same drift.
 * Memoised under `key`, so each of the paired cases can ask for it and the runs happen once.
 */
export function alternate(
  ctx: BenchContext,
  key: string,
  contenders: Record<string, Contender>,
): Promise<Record<string, Series | undefined>> {
  return ctx.shared(`alternate:${key}`, async () => {
    const names = Object.keys(contenders).filter((name) => ctx.selected(contenders[name].caseName));
    const samples = new Map<string, Sample[]>(names.map((name) => [name, []]));
    const rounds = Math.max(0, ...names.map((name) => contenders[name].runs));
    for (let round = 0; round < rounds; round++) {
      const order = round % 2 === 0 ? names : [...names].reverse();
      for (const name of order) {
        if (round >= contenders[name].runs) continue;
        const out = await contenders[name].run(round);
        const sample = typeof out === 'number' ? { value: out } : out;
        ctx.log(`${contenders[name].caseName} run ${round + 1}: ${Math.round(sample.value).toLocaleString('en-US')}/s`);
        samples.get(name)!.push(sample);
      }
    }
    const result: Record<string, Series | undefined> = {};
    for (const name of Object.keys(contenders)) {
      const list = samples.get(name);
      result[name] =
        list && list.length > 0
          ? {
              figure: median(list.map((s) => s.value)),
              runs: list.map((s) => s.value),
              details: list.map((s) => s.detail),
            }
          : undefined;
    }
    return result;
  });
}
