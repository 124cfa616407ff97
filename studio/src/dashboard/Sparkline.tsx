import type { Analytics } from '../api/types';
import { bucketLabel, formatCount, summarise } from './figures';

const W = 160;
const H = 28;

/** An agent's conversations per bucket in a line of small bars, named by a sentence of its figures. */
export function Sparkline({ answer }: { answer: Analytics }) {
  const values = answer.buckets.map((b) => b.conversations);
  const labels = answer.buckets.map((b) => bucketLabel(b.time, answer.granularity));
  const max = Math.max(1, ...values);
  const step = W / Math.max(1, values.length);
  const summary = summarise(
    `Conversations per ${answer.granularity}`,
    labels,
    [{ name: 'Conversations', values }],
    formatCount,
    { total: true, unit: answer.granularity === 'hour' ? 'hours' : 'days' },
  );
  return (
    <svg role="img" aria-label={summary} viewBox={`0 0 ${W} ${H}`} width={W} height={H} className="sparkline">
      {values.map((v, i) => (
        <rect key={i} x={i * step + step * 0.1} y={H - (v / max) * H} width={step * 0.8} height={(v / max) * H} />
      ))}
    </svg>
  );
}
