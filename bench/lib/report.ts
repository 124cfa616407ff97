import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { LimitOutcome, TargetOutcome } from '../targets';
import type { Result } from './case';
import { describeConditions, type MachineConditions } from './machine-conditions';
import type { Sizes } from './sizes';

export interface CaseOutcome extends Result {
  name: string;
  seconds: number;
  error?: string;
}

export interface Report {
  startedAt: string;
  seconds: number;
  quick: boolean;
  only: string[];
  machine: { node: string; platform: string; cpus: number; cpuModel: string; memoryGiB: number };
  /** how fast the shared machine was during this run (machine-conditions.ts) */
  conditions: MachineConditions;
  sizes: Sizes;
  cases: CaseOutcome[];
  targets: TargetOutcome[];
  limits: LimitOutcome[];
}

function fmt(value: number | null | undefined): string {
  if (value == null || !Number.isFinite(value)) return 'null';
  // small figures (latencies in ms) keep their decimals
  if (Math.abs(value) < 100) return value.toPrecision(3);
  return Math.round(value).toLocaleString('en-US');
}

function table(header: string[], rows: string[][], rightAligned: number[]): string {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  const line = (cells: string[]) =>
    cells
      .map((c, i) => (rightAligned.includes(i) ? c.padStart(widths[i]) : c.padEnd(widths[i])))
      .join('  ')
      .trimEnd();
  return [line(header), widths.map((w) => '-'.repeat(w)).join('  '), ...rows.map(line)].join('\n');
}

export function printReport(report: Report): void {
  const cases = table(
    ['case', 'figure', 'unit', 'runs', 'note'],
    report.cases.map((c) => [
      c.name,
      fmt(c.figure),
      c.unit,
      (c.runs ?? []).map(fmt).join(' / '),
      c.error ? `ERROR: ${c.error}` : (c.note ?? ''),
    ]),
    [1],
  );
  const targets = table(
    ['target (same run)', 'ratio', 'need', 'verdict'],
    report.targets.map((t) => [
      `${t.numerator} / ${t.denominator}`,
      t.ratio === null ? 'n/a' : t.ratio >= 10 ? `${t.ratio.toFixed(1)}x` : `${t.ratio.toFixed(3)}x`,
      t.atMost !== undefined ? `<= ${t.atMost}x` : `>= ${t.atLeast}x`,
      t.verdict,
    ]),
    [1, 2],
  );
  const limits = table(
    ['target (absolute)', 'figure', 'need', 'verdict'],
    report.limits.map((l) => [
      l.name,
      fmt(l.figure),
      l.atMost !== undefined ? `<= ${l.atMost}` : `>= ${l.atLeast}`,
      l.verdict,
    ]),
    [1, 2],
  );
  const m = report.machine;
  console.log(
    `\nParley bench${report.quick ? ' (--quick)' : ''}, ${report.startedAt}, node ${m.node}, ${m.cpus} x ${m.cpuModel}, ${report.seconds.toFixed(0)} s`,
  );
  console.log(`machine: ${describeConditions(report.conditions)}\n`);
  console.log(cases);
  for (const c of report.cases) if (c.table) console.log(`\n${c.name}:\n${c.table}`);
  console.log(`\n${targets}\n`);
  if (report.limits.length) console.log(`${limits}\n`);
}

/** Writes bench/results/<ISO timestamp>.json and bench/results/latest.json; returns the first path. */
export function writeReport(report: Report, resultsDir: string): string {
  fs.mkdirSync(resultsDir, { recursive: true });
  // Colons are not portable in file names; the timestamp stays ISO otherwise.
  const file = path.join(resultsDir, `${report.startedAt.replace(/:/g, '-')}.json`);
  const json = `${JSON.stringify(report, null, 2)}\n`;
  fs.writeFileSync(file, json);
  fs.writeFileSync(path.join(resultsDir, 'latest.json'), json);
  return file;
}

export function machine(): Report['machine'] {
  const cpus = os.cpus();
  return {
    node: process.version,
    platform: `${os.platform()} ${os.release()}`,
    cpus: cpus.length,
    cpuModel: cpus[0]?.model.trim() ?? 'unknown',
    memoryGiB: Math.round(os.totalmem() / 2 ** 30),
  };
}
