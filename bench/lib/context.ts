import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Sizes } from './sizes';

/** What every case gets: sizes, a private temp dir, and fixtures shared between cases. */
export interface BenchContext {
  readonly quick: boolean;
  readonly sizes: Sizes;
  /** Fresh temp dir on disk for this run; removed at the end. */
  readonly dir: string;
  /** A new, unused file path in the temp dir. */
  file(name: string): string;
  /**
   * Builds a fixture once per process run and hands the same value to every case asking for it
   * (the 1M-event log is built once and read by several cases).
   */
  shared<T>(key: string, build: () => Promise<T>): Promise<T>;
  /** Whether a case runs in this invocation (--only): paired workloads skip unselected sides. */
  selected(caseName: string): boolean;
  /** A progress line on stderr, so the table on stdout stays clean. */
  log(line: string): void;
  /** The figure a case of an earlier group of this run measured (a note can state a target's ratio), or null. */
  earlierFigure(caseName: string): number | null;
}

/** How run.ts hands a group the figures of the groups before it: a JSON object, case name to figure. */
export const EARLIER_FIGURES_ENV = 'BENCH_EARLIER_FIGURES';

export function createContext(
  quick: boolean,
  sizes: Sizes,
  selected: (caseName: string) => boolean = () => true,
): BenchContext & { dispose(): void } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'parley-bench-'));
  const fixtures = new Map<string, Promise<unknown>>();
  const earlier = JSON.parse(process.env[EARLIER_FIGURES_ENV] ?? '{}') as Record<string, number | null>;
  let counter = 0;
  return {
    quick,
    sizes,
    dir,
    file: (name) => path.join(dir, `${String(++counter).padStart(3, '0')}-${name}`),
    shared<T>(key: string, build: () => Promise<T>): Promise<T> {
      if (!fixtures.has(key)) fixtures.set(key, build());
      return fixtures.get(key) as Promise<T>;
    },
    selected,
    log: (line) => process.stderr.write(`  · ${line}\n`),
    earlierFigure: (caseName) => earlier[caseName] ?? null,
    dispose: () =>
      process.env.BENCH_KEEP ? process.stderr.write(`kept ${dir}\n`) : fs.rmSync(dir, { recursive: true, force: true }),
  };
}
