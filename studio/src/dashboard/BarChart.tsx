import { Axes } from './Axes';
import { ChartFigure, type ChartData } from './ChartFigure';
import { niceMax, PAD, PLOT_H, slot, xOf, yOf } from './geometry';

/** One series as bars, a bucket each (conversation volume); a zero is a bar of no height. */
export function BarChart(props: { id: string; title: string; summary: string; data: ChartData; ticks: string[] }) {
  const { data } = props;
  const values = data.series[0].values.map((v) => v ?? 0);
  const max = niceMax(Math.max(2, ...values));
  const n = values.length;
  const width = slot(n) * 0.7;
  return (
    <ChartFigure
      id={props.id}
      title={props.title}
      summary={props.summary}
      data={data}
      hasData={values.some((v) => v > 0)}
    >
      <Axes max={max} format={data.axisFormat ?? data.format} ticks={props.ticks} />
      <g className="series-0">
        {values.map((v, i) => (
          <rect
            key={data.times[i]}
            x={xOf(i, n) + (slot(n) - width) / 2}
            y={yOf(v, max)}
            width={width}
            height={PAD.top + PLOT_H - yOf(v, max)}
          >
            <title>{`${data.labels[i]}: ${data.format(v)}`}</title>
          </rect>
        ))}
      </g>
    </ChartFigure>
  );
}
