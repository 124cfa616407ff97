import type { Analytics } from '../api/types';
import { formatCount } from './figures';

/** The topics answers cited, by turns: a table whose last column draws each count as a bar. */
export function TopTopics({ topics }: { topics: Analytics['top_topics'] }) {
  const max = Math.max(1, ...topics.map((t) => t.turns));
  return (
    <figure className="chart" data-chart="topics" data-has-data={topics.length > 0}>
      <figcaption id="top-topics-title">Top topics, by the turns that cited them</figcaption>
      {topics.length === 0 ? (
        <p>No answer cited a topic in this range.</p>
      ) : (
        <table className="bar-list" aria-labelledby="top-topics-title">
          <thead>
            <tr>
              <th scope="col">Topic</th>
              <th scope="col">Turns</th>
              <th scope="col">
                <span className="sr-only">Share of the top topic</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {topics.map((t) => (
              <tr key={t.topic} data-topic={t.topic}>
                <th scope="row">{t.topic}</th>
                <td data-value={t.turns}>{formatCount(t.turns)}</td>
                <td className="bar-cell" aria-hidden="true">
                  <svg width="100%" height="12">
                    <rect width={`${(t.turns / max) * 100}%`} height="12" className="bar" />
                  </svg>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </figure>
  );
}
