import { useId, useState, type ReactNode } from 'react';
import { show, type Series } from './figures';
import { HEIGHT, WIDTH } from './geometry';

/** What a chart draws, in the form its data table lists it: one row per bucket, one column per series. */
export interface ChartData {
  times: string[];
  labels: string[];
  series: Series[];
  format: (v: number) => string;
  /** the axis' labels, when shorter than the figures' (`50 %` for `50.0 %`) */
  axisFormat?: (v: number) => string;
}

/**
 * A chart as a figure: its title, the SVG (an image named by the title and described by
 * `summary`), a legend, and its data as a table, visually hidden until "Show the figures" so a
 * screen reader (and a test) reads every value. `data-has-data` marks a chart drawn with at
 * least one figure (the bench times the first on screen).
 */
export function ChartFigure(props: {
  id: string;
  title: string;
  summary: string;
  data: ChartData;
  hasData: boolean;
  legend?: ReactNode;
  children: ReactNode;
}) {
  const { id, title, summary, data, hasData } = props;
  const uid = useId();
  const [tableShown, setTableShown] = useState(false);
  return (
    <figure className="chart" data-chart={id} data-has-data={hasData}>
      <figcaption id={`${uid}-title`}>{title}</figcaption>
      {props.legend}
      <svg
        role="img"
        aria-labelledby={`${uid}-title`}
        aria-describedby={`${uid}-summary`}
        viewBox={`0 0 ${WIDTH} ${HEIGHT}`}
        width="100%"
      >
        {props.children}
      </svg>
      <p id={`${uid}-summary`} className="sr-only" data-testid="summary">
        {summary}
      </p>
      <button
        type="button"
        className="link"
        aria-expanded={tableShown}
        aria-controls={`${uid}-table`}
        onClick={() => setTableShown((v) => !v)}
      >
        {tableShown ? 'Hide the figures' : 'Show the figures'}
      </button>
      <div id={`${uid}-table`} className={tableShown ? 'chart-table' : 'sr-only'}>
        <table>
          <caption>{title} (UTC)</caption>
          <thead>
            <tr>
              <th scope="col">Time</th>
              {data.series.map((s) => (
                <th key={s.name} scope="col">
                  {s.name}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {data.times.map((time, i) => (
              <tr key={time} data-time={time}>
                <th scope="row">
                  <time dateTime={time}>{data.labels[i]}</time>
                </th>
                {data.series.map((s) => (
                  <td key={s.name} data-series={s.name} data-value={s.values[i] ?? ''}>
                    {show(s.values[i], data.format)}
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </figure>
  );
}
