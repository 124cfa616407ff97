import 'reflect-metadata';
import path from 'node:path';
import { ALL_CASES } from './cases';
import { parseArgs } from './lib/args';
import { createContext } from './lib/context';
import { secondsSince } from './lib/measure';
import { repoRoot } from './lib/paths';
import { machine, printReport, writeReport, type CaseOutcome, type Report } from './lib/report';
import { FULL, QUICK } from './lib/sizes';
import { judge, judgeLimits, LIMITS, TARGETS } from './targets';

/**
 * `npm run bench [-- --quick] [-- --only <substring>]`: runs every case in this one process, so
 * the ratios compare figures taken minutes apart on the same machine, then prints the table and
 * writes bench/results/<timestamp>.json and latest.json. Exits 1 only if a case broke (a missed
 * target is a finding, not a crash).
 */
async function main(): Promise<number> {
  const args = parseArgs(process.argv.slice(2));
  const sizes = args.quick ? QUICK : FULL;
  const selected = (name: string) => args.only.length === 0 || args.only.some((s) => name.includes(s));
  const cases = ALL_CASES.filter((c) => selected(c.name));
  if (cases.length === 0) throw new Error(`no case matches --only ${args.only.join(', ')}`);

  const startedAt = new Date().toISOString();
  const start = process.hrtime.bigint();
  const ctx = createContext(args.quick, sizes, selected);
  const outcomes: CaseOutcome[] = [];
  try {
    for (const c of cases) {
      process.stderr.write(`${c.name} ...\n`);
      const caseStart = process.hrtime.bigint();
      try {
        const result = await c.run(ctx);
        outcomes.push({ name: c.name, ...result, seconds: secondsSince(caseStart) });
        process.stderr.write(`  = ${result.figure === null ? 'null' : Math.round(result.figure).toLocaleString('en-US')} ${result.unit} (${secondsSince(caseStart).toFixed(1)} s)\n`);
      } catch (error) {
        const message = error instanceof Error ? error.message : String(error);
        process.stderr.write(`  !!! ${c.name} failed: ${error instanceof Error ? error.stack : message}\n`);
        outcomes.push({ name: c.name, figure: null, unit: '', error: message, seconds: secondsSince(caseStart) });
      }
    }
  } finally {
    ctx.dispose();
  }

  const figures = new Map(outcomes.map((o) => [o.name, o.figure] as const));
  const report: Report = {
    startedAt,
    seconds: secondsSince(start),
    quick: args.quick,
    only: args.only,
    machine: machine(),
    sizes,
    cases: outcomes,
    targets: judge(TARGETS, figures),
    limits: judgeLimits(LIMITS, figures),
  };
  printReport(report);
  const file = writeReport(report, path.join(repoRoot(), 'bench', 'results'));
  console.log(`results: ${path.relative(process.cwd(), file)} (and bench/results/latest.json)`);
  return outcomes.some((o) => o.error) ? 1 : 0;
}

main().then(
  (code) => process.exit(code),
  (error) => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(2);
  },
);
