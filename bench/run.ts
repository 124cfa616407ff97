import 'reflect-metadata';
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { CASE_GROUPS } from './cases';
import { parseArgs, type BenchArgs } from './lib/args';
import type { BenchCase } from './lib/case';
import { createContext, EARLIER_FIGURES_ENV } from './lib/context';
import { secondsSince } from './lib/measure';
import { repoRoot } from './lib/paths';
import { watchMachine } from './lib/machine-conditions';
import { machine, printReport, writeReport, type CaseOutcome, type Report } from './lib/report';
import { FULL, QUICK } from './lib/sizes';
import { judge, judgeLimits, LIMITS, TARGETS } from './targets';

/**
 * `npm run bench [-- --quick] [-- --only <substring>|=<name>]`: runs every case group in a child process
 * of its own, one after the other, so the ratios compare figures taken minutes apart on the same
 * machine while no group inherits another's heap. Then prints the table and writes
 * bench/results/<timestamp>.json and latest.json. Exits 1 only if a case broke (a missed target
 * is a finding, not a crash).
 */
async function main(): Promise<number> {
  const args = parseArgs(process.argv.slice(2));
  // `--only =name` selects that case alone (a substring would also pick `postgres.<name>`)
  const selected = (name: string) =>
    args.only.length === 0 || args.only.some((s) => (s.startsWith('=') ? name === s.slice(1) : name.includes(s)));
  if (args.group !== undefined) return runGroup(args, selected);

  const groups = CASE_GROUPS.filter((g) => g.backend === undefined || g.backend === args.backend)
    .map((g) => ({ name: g.name, cases: g.cases.filter((c) => selected(c.name)) }))
    .filter((g) => g.cases.length > 0);
  if (groups.length === 0) throw new Error(`no case matches --only ${args.only.join(', ')}`);
  const startedAt = new Date().toISOString();
  const start = process.hrtime.bigint();
  const conditions = await watchMachine();
  const outcomes: CaseOutcome[] = [];
  for (const group of groups) outcomes.push(...(await spawnGroup(group.name, group.cases, outcomes)));

  const figures = new Map(outcomes.map((o) => [o.name, o.figure] as const));
  const report: Report = {
    startedAt,
    seconds: secondsSince(start),
    quick: args.quick,
    only: args.only,
    machine: machine(),
    conditions: await conditions(),
    sizes: args.quick ? QUICK : FULL,
    cases: outcomes,
    targets: judge(TARGETS, figures),
    limits: judgeLimits(LIMITS, figures),
  };
  printReport(report);
  const file = writeReport(report, path.join(repoRoot(), 'bench', 'results'));
  console.log(`results: ${path.relative(process.cwd(), file)} (and bench/results/latest.json)`);
  return outcomes.some((o) => o.error) ? 1 : 0;
}

/** A group in a fresh `node --expose-gc` with the same arguments; a crash marks its cases broken. */
function spawnGroup(name: string, cases: BenchCase[], earlier: CaseOutcome[]): Promise<CaseOutcome[]> {
  const out = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'parley-bench-group-')), 'outcomes.json');
  const argv = [...process.execArgv, __filename, ...process.argv.slice(2), '--group', name, '--out', out];
  const started = process.hrtime.bigint();
  return new Promise((resolve) => {
    const env = {
      ...process.env,
      [EARLIER_FIGURES_ENV]: JSON.stringify(Object.fromEntries(earlier.map((o) => [o.name, o.figure]))),
    };
    const child = spawn(process.execPath, argv, { stdio: ['ignore', 'inherit', 'inherit'], env });
    const finish = (failure: string | null) => {
      let outcomes: CaseOutcome[] | null;
      try {
        outcomes = JSON.parse(fs.readFileSync(out, 'utf8')) as CaseOutcome[];
      } catch {
        outcomes = null;
      }
      fs.rmSync(path.dirname(out), { recursive: true, force: true });
      if (outcomes) return resolve(outcomes);
      const error = `group ${name} ended without results: ${failure ?? 'no outcome file'}`;
      process.stderr.write(`  !!! ${error}\n`);
      resolve(cases.map((c) => ({ name: c.name, figure: null, unit: '', error, seconds: secondsSince(started) })));
    };
    child.on('error', (error) => finish(error.message));
    child.on('exit', (code, signal) => finish(code === 0 ? null : `exit ${code ?? signal}`));
  });
}

/** The child's side: the group's selected cases in this process, outcomes to `args.out`. */
async function runGroup(args: BenchArgs, selected: (name: string) => boolean): Promise<number> {
  const group = CASE_GROUPS.find((g) => g.name === args.group);
  if (!group || !args.out) throw new Error(`unknown group ${args.group} or no --out`);
  const ctx = createContext(args.quick, args.quick ? QUICK : FULL, selected);
  const outcomes: CaseOutcome[] = [];
  try {
    for (const c of group.cases.filter((x) => selected(x.name))) {
      process.stderr.write(`${c.name} ...\n`);
      const caseStart = process.hrtime.bigint();
      try {
        const result = await c.run(ctx);
        outcomes.push({ name: c.name, ...result, seconds: secondsSince(caseStart) });
        process.stderr.write(
          `  = ${result.figure === null ? 'null' : Math.round(result.figure).toLocaleString('en-US')} ${result.unit} (${secondsSince(caseStart).toFixed(1)} s)\n`,
        );
      } catch (error) {
        const message = error instanceof Error ? error.message : String(error);
        process.stderr.write(`  !!! ${c.name} failed: ${error instanceof Error ? error.stack : message}\n`);
        outcomes.push({ name: c.name, figure: null, unit: '', error: message, seconds: secondsSince(caseStart) });
      }
    }
  } finally {
    ctx.dispose();
  }
  fs.writeFileSync(args.out, JSON.stringify(outcomes));
  return 0;
}

main().then(
  (code) => process.exit(code),
  (error) => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(2);
  },
);
