import { useMemo, useState } from 'react';
import { useStudio } from '../api/context';
import type { AnalyticsQuery } from '../api/types';
import { Charts } from '../dashboard/Charts';
import { Headline } from '../dashboard/Headline';
import { RangePicker } from '../dashboard/RangePicker';
import { windowOf } from '../dashboard/range';
import { TopTopics } from '../dashboard/TopTopics';
import { Unanswered } from '../dashboard/Unanswered';
import { useSelection } from '../dashboard/use-selection';
import { ErrorNote, useLoad } from '../ui';
import '../dashboard/dashboard.css';

/**
 * An agent's landing page: how it is doing over a range (contract §23's Analytics API), its
 * charts, top topics and the inputs no topic answered. The range ends with the current hour or
 * day, read from this browser's clock when the page opens or Refresh is pressed.
 */
const minute = (iso: string) => iso.slice(0, 16).replace('T', ' ');
/** The line saying what the figures on screen cover. */
const describe = (r: AnalyticsQuery) =>
  `${minute(r.start_time!)} to ${minute(r.end_time!)} UTC by ${r.granularity}, ${r.client_env}, ${r.channel?.join(', ') ?? 'every channel'}`;

export function Dashboard({ agentId }: { agentId: string }) {
  const { api, session } = useStudio();
  const accountId = session.accountId!;
  const canEdit = session.permissions.includes('agents');
  const [selection, setSelection] = useSelection();
  const [now, setNow] = useState(Date.now);
  const [asked, setAsked] = useState(0);
  const range = useMemo(() => windowOf(selection, now), [selection, now]);
  const request =
    range.error !== undefined
      ? null
      : { ...range, client_env: selection.env, channel: selection.channels.length ? selection.channels : undefined };
  const key = JSON.stringify(request);
  const series = useLoad(
    async () => (request ? { request, answer: await api.analytics(accountId, agentId, request) } : null),
    [api, accountId, agentId, key, asked],
  );
  // data access says whether transcripts (and so unanswered inputs) show; reading it needs `agents`
  const access = useLoad(
    async () => (canEdit ? (await api.dataAccess(accountId, agentId)).show_transcripts : null),
    [api, accountId, agentId, canEdit],
  );
  const shown = series.data;

  return (
    <section
      aria-labelledby="dashboard-title"
      className="dashboard"
      aria-busy={series.loading}
      data-start={shown?.request.start_time}
      data-end={shown?.request.end_time}
      data-granularity={shown?.answer.granularity}
      data-env={shown?.request.client_env}
    >
      <div className="row">
        <h2 id="dashboard-title" className="grow">
          Dashboard
        </h2>
        <button
          type="button"
          className="secondary"
          onClick={() => {
            setNow(Date.now());
            setAsked((n) => n + 1);
          }}
        >
          Refresh
        </button>
      </div>
      <RangePicker selection={selection} onChange={setSelection} problem={range.error} />
      <p role="status" className="hint">
        {series.loading ? 'Loading…' : shown ? describe(shown.request) : ''}
      </p>
      <ErrorNote error={series.error} />
      {shown && (
        <>
          <Headline totals={shown.answer.totals} />
          <Charts answer={shown.answer} />
          <div className="split-even">
            <TopTopics topics={shown.answer.top_topics} />
            <Unanswered
              agentId={agentId}
              inputs={shown.answer.unanswered}
              transcripts={access.data}
              canEdit={canEdit}
            />
          </div>
        </>
      )}
    </section>
  );
}
