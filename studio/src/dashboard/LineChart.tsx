import { Axes } from './Axes';
import { ChartFigure, type ChartData } from './ChartFigure';
import { show, type Value } from './figures';
import { niceMax, slot, xOf, yOf } from './geometry';

/** Runs of known values: a `null` (no data) breaks the line rather than drawing it to zero. */
function runs(values: Value[]): Array<Array<{ i: number; v: number }>> {
  const out: Array<Array<{ i: number; v: number }>> = [];
  let current: Array<{ i: number; v: number }> = [];
  values.forEach((v, i) => {
    if (v === null) {
      if (current.length) out.push(current);
      current = [];
    } else current.push({ i, v });
  });
  if (current.length) out.push(current);
  return out;
}

/**
 * Series as lines over the buckets (rates, percentiles), a dot on each known value; a bucket
 * without data leaves a gap. `max` fixes the axis (100 for percentages), else it fits the data.
 */
export function LineChart(props: {
  id: string;
  title: string;
  summary: string;
  data: ChartData;
  ticks: string[];
  max?: number;
}) {
  const { data } = props;
  const known = data.series.flatMap((s) => s.values.filter((v): v is number => v !== null));
  const max = props.max ?? niceMax(Math.max(0, ...known));
  const n = data.times.length;
  const x = (i: number) => xOf(i, n) + slot(n) / 2;
  const legend = (
    <ul className="legend" aria-hidden="true">
      {data.series.map((s, k) => (
        <li key={s.name}>
          <svg width="24" height="10" className={`series-${k}`}>
            <line x1="0" x2="24" y1="5" y2="5" />
          </svg>
          {s.name}
        </li>
      ))}
    </ul>
  );
  return (
    <ChartFigure
      id={props.id}
      title={props.title}
      summary={props.summary}
      data={data}
      hasData={known.length > 0}
      legend={legend}
    >
      <Axes max={max} format={data.axisFormat ?? data.format} ticks={props.ticks} />
      {data.series.map((s, k) => (
        <g key={s.name} className={`series-${k}`}>
          {runs(s.values).map((run) => (
            <polyline key={run[0].i} points={run.map((p) => `${x(p.i)},${yOf(p.v, max)}`).join(' ')} />
          ))}
          {s.values.map((v, i) =>
            v === null ? null : (
              <circle key={i} cx={x(i)} cy={yOf(v, max)} r={2.5}>
                <title>{`${data.labels[i]}, ${s.name}: ${show(v, data.format)}`}</title>
              </circle>
            ),
          )}
        </g>
      ))}
    </ChartFigure>
  );
}
