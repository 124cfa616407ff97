import path from 'node:path';
import { OUT_OF_DOMAIN_CONFIDENCE } from '../runtime/retrieval/topic-index';
import { answerAt, metricsOf, sweep, type Metrics, type Outcome } from './retrieval-eval/eval-metrics';
import { blindSetDir, defaultSetDir, loadEvalSet, type Split } from './retrieval-eval/eval-set';
import { runEval } from './retrieval-eval/run-eval';

/**
 * The bars of the --assert mode: issue 35's 90% out-of-domain precision, and issue 54's floor for the
 * tuned set (88%: retrieval changes are judged on the blind set, and may cost this one a little).
 */
export const MIN_TOP1 = 0.88;
export const MIN_OOD_PRECISION = 0.9;
/** The blind set's bar (issue 54): questions written from topic names and one line, never the content. */
const MIN_BLIND_TOP1 = 0.85;

const USAGE = `usage: npm run eval -- [--set tuned|blind|<dir>]... [--split dev|heldout|all] [--assert] [--misses]
  Asks every labelled question of each evaluation set through the embedded runtime and prints
  in-domain top-1 accuracy, out-of-domain precision and recall, per agent, and the best threshold
  of a sweep. By default both shipped sets, each reported apart:
    tuned  eval/agents: written with the topics in view, the runtime tuned on its dev part
    blind  eval/blind: questions written from each topic's name and one line only (issue 54)
  --split    which questions: dev (tuning), heldout (every third, run at the end) or all (default)
  --assert   exit code 1 unless each set's in-domain top-1 >= its bar (tuned ${pct(MIN_TOP1)}, blind
             ${pct(MIN_BLIND_TOP1)}) and out-of-domain precision >= ${pct(MIN_OOD_PRECISION)}
             (--min-top1 <0..1> and --min-precision <0..1> move the bars of every set)
  --misses   also list every question answered wrongly
  --sweep    also print the sweep, threshold by threshold`;

type Out = { write(text: string): unknown };

function pct(x: number): string {
  return `${(x * 100).toFixed(1)}%`;
}

function line(label: string, m: Metrics): string {
  return (
    `${label.padEnd(12)} ${String(m.questions).padStart(4)} q  ` +
    `top-1 ${pct(m.top1).padStart(6)} (retrieved ${pct(m.retrievalTop1).padStart(6)})  ` +
    `ood precision ${pct(m.oodPrecision).padStart(6)}  recall ${pct(m.oodRecall).padStart(6)}  ` +
    `overall ${pct(m.accuracy).padStart(6)}`
  );
}

interface SetToRun {
  label: string;
  dir: string;
}

/** Exit codes: 0 ok, 1 below a bar in --assert mode, 2 usage or a malformed set. */
export async function runRetrievalEvalCli(argv: string[], out: Out = process.stdout): Promise<number> {
  let split: Split | 'all' = 'all';
  let sets: SetToRun[] | null = null;
  let assert = false;
  let misses = false;
  let showSweep = false;
  let minTop1: number | null = null;
  let minPrecision = MIN_OOD_PRECISION;
  const ratio = (text: string | undefined) =>
    text !== undefined && /^(0(\.\d+)?|1(\.0+)?)$/.test(text) ? Number(text) : null;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === '--assert') assert = true;
    else if (arg === '--misses') misses = true;
    else if (arg === '--sweep') showSweep = true;
    else if (arg === '--split' && ['dev', 'heldout', 'all'].includes(argv[i + 1])) split = argv[++i] as Split | 'all';
    else if (arg === '--set' && argv[i + 1]) sets = [...(sets ?? []), setNamed(argv[++i])];
    else if (arg === '--min-top1' && ratio(argv[i + 1]) !== null) minTop1 = ratio(argv[++i])!;
    else if (arg === '--min-precision' && ratio(argv[i + 1]) !== null) minPrecision = ratio(argv[++i])!;
    else {
      out.write(`${USAGE}\n`);
      return 2;
    }
  }
  const failures: string[] = [];
  for (const set of sets ?? [setNamed('tuned'), setNamed('blind')]) {
    let outcomes: Outcome[];
    try {
      outcomes = await runEval(loadEvalSet(set.dir), split === 'all' ? undefined : split);
    } catch (error) {
      out.write(`${(error as Error).message}\n`);
      return 2;
    }
    const bars = { top1: minTop1 ?? (set.label === 'blind' ? MIN_BLIND_TOP1 : MIN_TOP1), precision: minPrecision };
    out.write(`\n== ${set.label} set (${path.relative(process.cwd(), set.dir) || set.dir}) ==\n`);
    const overall = report(outcomes, split, { showSweep, misses, bars }, out);
    if (overall.top1 < bars.top1)
      failures.push(`${set.label}: in-domain top-1 ${pct(overall.top1)} < ${pct(bars.top1)}`);
    if (overall.oodPrecision < bars.precision)
      failures.push(`${set.label}: out-of-domain precision ${pct(overall.oodPrecision)} < ${pct(bars.precision)}`);
  }
  if (!assert) return 0;
  out.write(failures.length ? `FAIL: ${failures.join('; ')}\n` : 'PASS\n');
  return failures.length ? 1 : 0;
}

/** `tuned` (eval/agents), `blind` (eval/blind) or a directory of agent files. */
function setNamed(name: string): SetToRun {
  if (name === 'tuned') return { label: 'tuned', dir: defaultSetDir() };
  if (name === 'blind') return { label: 'blind', dir: blindSetDir() };
  return { label: path.basename(path.resolve(name)), dir: path.resolve(name) };
}

function report(
  outcomes: Outcome[],
  split: Split | 'all',
  options: { showSweep: boolean; misses: boolean; bars: { top1: number; precision: number } },
  out: Out,
): Metrics {
  const overall = metricsOf(outcomes);
  out.write(`retrieval eval, split ${split}, threshold ${OUT_OF_DOMAIN_CONFIDENCE} (OUT_OF_DOMAIN_CONFIDENCE)\n`);
  for (const agent of [...new Set(outcomes.map((o) => o.agent))])
    out.write(`${line(agent, metricsOf(outcomes.filter((o) => o.agent === agent)))}\n`);
  if (split === 'all')
    for (const part of ['dev', 'heldout'] as const)
      out.write(`${line(`[${part}]`, metricsOf(outcomes.filter((o) => o.split === part)))}\n`);
  out.write(`${line('ALL', overall)}\n`);

  const { points, best } = sweep(outcomes);
  if (options.showSweep) for (const p of points) out.write(`${line(`  at ${p.threshold.toFixed(2)}`, p.metrics)}\n`);
  const passing = points.filter(
    (p) => p.metrics.top1 >= options.bars.top1 && p.metrics.oodPrecision >= options.bars.precision,
  );
  out.write(
    passing.length
      ? `thresholds meeting both bars: ${passing.map((p) => p.threshold.toFixed(2)).join(' ')}\n`
      : 'no threshold meets both bars\n',
  );
  out.write(`best threshold (most questions right): ${best.threshold.toFixed(2)}\n`);
  out.write(`${line('  at best', best.metrics)}\n`);

  if (options.misses) {
    for (const o of outcomes) {
      const given = answerAt(o, OUT_OF_DOMAIN_CONFIDENCE);
      if (o.cited === o.label) continue;
      const question = `${o.agent}: ${JSON.stringify(o.q)}`;
      out.write(
        `miss ${question} label ${o.label} answered ${o.cited}` +
          ` (top ${o.top} ${o.confidence.toFixed(2)}${given !== o.cited ? ', runtime differs from threshold' : ''})\n`,
      );
    }
  }
  return overall;
}

if (require.main === module) {
  runRetrievalEvalCli(process.argv.slice(2)).then(
    (code) => process.exit(code),
    (error: unknown) => {
      console.error(error);
      process.exit(2);
    },
  );
}
