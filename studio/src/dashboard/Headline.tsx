import type { AnalyticsTotals } from '../api/types';
import { formatCount, formatMs, formatPercent, rate, show, type Value } from './figures';

/** The range's totals: what the dashboard says first. Each figure carries its raw value (`data-value`). */
export function Headline({ totals }: { totals: AnalyticsTotals }) {
  const figures: Array<{ id: string; label: string; value: Value; format: (v: number) => string }> = [
    { id: 'conversations', label: 'Conversations', value: totals.conversations, format: formatCount },
    {
      id: 'containment',
      label: 'Containment',
      value: rate(totals.contained, totals.conversations),
      format: formatPercent,
    },
    { id: 'handoffs', label: 'Handoffs', value: rate(totals.handoffs, totals.conversations), format: formatPercent },
    { id: 'abandoned', label: 'Abandoned', value: totals.abandoned, format: formatCount },
    {
      id: 'first-response-p50',
      label: 'First response p50',
      value: totals.first_response_ms.p50,
      format: formatMs,
    },
  ];
  return (
    <dl className="headline" aria-label="Totals over the range">
      {figures.map((f) => (
        <div key={f.id} className="figure">
          <dt>{f.label}</dt>
          <dd data-figure={f.id} data-value={f.value ?? ''}>
            {show(f.value, f.format)}
          </dd>
        </div>
      ))}
    </dl>
  );
}
