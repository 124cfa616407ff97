import { OUT_OF_DOMAIN_CONFIDENCE } from '../runtime/retrieval/topic-index';
import { answerAt, metricsOf, sweep, type Metrics, type Outcome } from './retrieval-eval/eval-metrics';
import { defaultSetDir, loadEvalSet, type Split } from './retrieval-eval/eval-set';
import { runEval } from './retrieval-eval/run-eval';

/** The bars of the --assert mode (issue 35). */
export const MIN_TOP1 = 0.9;
export const MIN_OOD_PRECISION = 0.9;

const USAGE = `usage: npm run eval -- [--split dev|heldout|all] [--set <dir>] [--assert] [--misses]
  Asks every labelled question of the evaluation set (eval/agents/*.json) through the embedded
  runtime and prints in-domain top-1 accuracy, out-of-domain precision and recall, per agent, and
  the best threshold of a sweep.
  --split    which questions: dev (tuning), heldout (every third, run at the end) or all (default)
  --assert   exit code 1 unless in-domain top-1 >= ${pct(MIN_TOP1)} and out-of-domain precision >= ${pct(MIN_OOD_PRECISION)}
             (--min-top1 <0..1> and --min-precision <0..1> move the bars)
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

/** Exit codes: 0 ok, 1 below a bar in --assert mode, 2 usage or a malformed set. */
export async function runRetrievalEvalCli(argv: string[], out: Out = process.stdout): Promise<number> {
  let split: Split | 'all' = 'all';
  let dir: string | undefined;
  let assert = false;
  let misses = false;
  let showSweep = false;
  let minTop1 = MIN_TOP1;
  let minPrecision = MIN_OOD_PRECISION;
  const ratio = (text: string | undefined) =>
    text !== undefined && /^(0(\.\d+)?|1(\.0+)?)$/.test(text) ? Number(text) : null;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === '--assert') assert = true;
    else if (arg === '--misses') misses = true;
    else if (arg === '--sweep') showSweep = true;
    else if (arg === '--split' && ['dev', 'heldout', 'all'].includes(argv[i + 1])) split = argv[++i] as Split | 'all';
    else if (arg === '--set' && argv[i + 1]) dir = argv[++i];
    else if (arg === '--min-top1' && ratio(argv[i + 1]) !== null) minTop1 = ratio(argv[++i])!;
    else if (arg === '--min-precision' && ratio(argv[i + 1]) !== null) minPrecision = ratio(argv[++i])!;
    else {
      out.write(`${USAGE}\n`);
      return 2;
    }
  }
  let outcomes: Outcome[];
  try {
    const agents = loadEvalSet(dir ?? defaultSetDir());
    outcomes = await runEval(agents, split === 'all' ? undefined : split);
  } catch (error) {
    out.write(`${(error as Error).message}\n`);
    return 2;
  }

  const overall = metricsOf(outcomes);
  out.write(`retrieval eval, split ${split}, threshold ${OUT_OF_DOMAIN_CONFIDENCE} (OUT_OF_DOMAIN_CONFIDENCE)\n`);
  for (const agent of [...new Set(outcomes.map((o) => o.agent))])
    out.write(`${line(agent, metricsOf(outcomes.filter((o) => o.agent === agent)))}\n`);
  if (split === 'all')
    for (const part of ['dev', 'heldout'] as const)
      out.write(`${line(`[${part}]`, metricsOf(outcomes.filter((o) => o.split === part)))}\n`);
  out.write(`${line('ALL', overall)}\n`);

  const { points, best } = sweep(outcomes);
  if (showSweep) for (const p of points) out.write(`${line(`  at ${p.threshold.toFixed(2)}`, p.metrics)}\n`);
  const passing = points.filter((p) => p.metrics.top1 >= minTop1 && p.metrics.oodPrecision >= minPrecision);
  out.write(
    passing.length
      ? `thresholds meeting both bars: ${passing.map((p) => p.threshold.toFixed(2)).join(' ')}\n`
      : 'no threshold meets both bars\n',
  );
  out.write(`best threshold (most questions right): ${best.threshold.toFixed(2)}\n`);
  out.write(`${line('  at best', best.metrics)}\n`);

  if (misses) {
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

  if (!assert) return 0;
  const failures: string[] = [];
  if (overall.top1 < minTop1) failures.push(`in-domain top-1 ${pct(overall.top1)} < ${pct(minTop1)}`);
  if (overall.oodPrecision < minPrecision)
    failures.push(`out-of-domain precision ${pct(overall.oodPrecision)} < ${pct(minPrecision)}`);
  out.write(failures.length ? `FAIL: ${failures.join('; ')}\n` : 'PASS\n');
  return failures.length ? 1 : 0;
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
