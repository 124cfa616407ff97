import { HEIGHT, PAD, PLOT_H, WIDTH, slot, tickIndices, xOf, yOf } from './geometry';

/** Gridlines at 0, half and the top with their values, and some bucket labels under the plot. */
export function Axes(props: { max: number; format: (v: number) => string; ticks: string[] }) {
  const { max, format, ticks } = props;
  const n = ticks.length;
  return (
    <g className="axes" aria-hidden="true">
      {[0, max / 2, max].map((v) => (
        <g key={v}>
          <line x1={PAD.left} x2={WIDTH - PAD.right} y1={yOf(v, max)} y2={yOf(v, max)} className="grid" />
          <text x={PAD.left - 6} y={yOf(v, max) + 4} textAnchor="end">
            {format(v)}
          </text>
        </g>
      ))}
      {tickIndices(n).map((i) => (
        <text key={i} x={xOf(i, n) + slot(n) / 2} y={HEIGHT - 6} textAnchor="middle">
          {ticks[i]}
        </text>
      ))}
      <line x1={PAD.left} x2={PAD.left} y1={PAD.top} y2={PAD.top + PLOT_H} className="axis" />
    </g>
  );
}
