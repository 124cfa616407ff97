import type { Analytics } from '../api/types';
import { BarChart } from './BarChart';
import {
  bucketLabel,
  formatCount,
  formatMs,
  formatPercent,
  formatSeconds,
  rate,
  summarise,
  tickLabel,
} from './figures';
import type { ChartData } from './ChartFigure';
import { LineChart } from './LineChart';

/** The four charts over the answer's buckets: volume, containment and handoff rates, first response, duration. */
export function Charts({ answer }: { answer: Analytics }) {
  const { buckets, granularity } = answer;
  const times = buckets.map((b) => b.time);
  const labels = times.map((t) => bucketLabel(t, granularity));
  const ticks = times.map((t) => tickLabel(t, granularity));
  const unit = granularity === 'hour' ? 'hours' : 'days';
  const per = granularity === 'hour' ? 'per hour' : 'per day';
  const chart = (series: ChartData['series'], format: (v: number) => string): ChartData => ({
    times,
    labels,
    series,
    format,
  });

  const volume = chart([{ name: 'Conversations', values: buckets.map((b) => b.conversations) }], formatCount);
  const rates = {
    ...chart(
      [
        { name: 'Containment', values: buckets.map((b) => rate(b.contained, b.conversations)) },
        { name: 'Handoffs', values: buckets.map((b) => rate(b.handoffs, b.conversations)) },
      ],
      formatPercent,
    ),
    axisFormat: (v: number) => `${v} %`,
  };
  const firstResponse = chart(
    [
      { name: 'p50', values: buckets.map((b) => b.first_response_ms.p50) },
      { name: 'p90', values: buckets.map((b) => b.first_response_ms.p90) },
    ],
    formatMs,
  );
  const duration = chart(
    [
      { name: 'p50', values: buckets.map((b) => b.duration_s.p50) },
      { name: 'p90', values: buckets.map((b) => b.duration_s.p90) },
    ],
    formatSeconds,
  );
  const title = {
    volume: `Conversations ${per}`,
    rates: `Containment and handoff rates ${per}`,
    firstResponse: `First response time ${per}`,
    duration: `Conversation duration ${per}`,
  };
  return (
    <div className="charts">
      <BarChart
        id="conversations"
        title={title.volume}
        data={volume}
        ticks={ticks}
        summary={summarise(title.volume, labels, volume.series, formatCount, { total: true, unit })}
      />
      <LineChart
        id="rates"
        title={title.rates}
        data={rates}
        ticks={ticks}
        max={100}
        summary={summarise(title.rates, labels, rates.series, formatPercent, { unit })}
      />
      <LineChart
        id="first-response"
        title={title.firstResponse}
        data={firstResponse}
        ticks={ticks}
        summary={summarise(title.firstResponse, labels, firstResponse.series, formatMs, { unit })}
      />
      <LineChart
        id="duration"
        title={title.duration}
        data={duration}
        ticks={ticks}
        summary={summarise(title.duration, labels, duration.series, formatSeconds, { unit })}
      />
    </div>
  );
}
