import { useEffect, useMemo, useState } from 'react';
import { useStudio } from '../api/context';
import type { Analytics, AnalyticsQuery } from '../api/types';
import { formatCount, formatMs, formatPercent, rate, show, type Value } from '../dashboard/figures';
import { queryOf, windowOf } from '../dashboard/range';
import { RangePicker } from '../dashboard/RangePicker';
import { Sparkline } from '../dashboard/Sparkline';
import { useSelection } from '../dashboard/use-selection';
import { ErrorNote, Link, useLoad } from '../ui';
import '../dashboard/dashboard.css';

/** Agents asked at once: an account's many agents should not queue the browser's connections. */
const AT_ONCE = 4;

type Row = { answer: Analytics } | { error: unknown };

/** Calls `each` on every item, at most `limit` at a time. */
async function eachLimited<T>(items: T[], limit: number, each: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < items.length) await each(items[next++]);
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
}

function Cell({ id, value, format }: { id: string; value: Value; format: (v: number) => string }) {
  return (
    <td data-figure={id} data-value={value ?? ''}>
      {show(value, format)}
    </td>
  );
}

/**
 * Every agent of the account with its headline figures over one range, each linking to its
 * dashboard with the same range. One Analytics API call per agent (contract §23), a few at once.
 */
export function Overview() {
  const { api, session } = useStudio();
  const accountId = session.accountId!;
  const [selection, setSelection] = useSelection();
  const [now] = useState(Date.now);
  const range = useMemo(() => windowOf(selection, now), [selection, now]);
  const agents = useLoad(() => api.agents(accountId), [api, accountId]);
  const [rows, setRows] = useState<Record<string, Row>>({});
  const request: AnalyticsQuery | null =
    range.error !== undefined
      ? null
      : { ...range, client_env: selection.env, channel: selection.channels.length ? selection.channels : undefined };
  const key = JSON.stringify(request);

  useEffect(() => {
    setRows({});
    if (!agents.data || !request) return;
    let stale = false;
    void eachLimited(agents.data, AT_ONCE, async (agent) => {
      let row: Row;
      try {
        row = { answer: await api.analytics(accountId, agent.agentId, request) };
      } catch (error) {
        row = { error };
      }
      if (!stale) setRows((r) => ({ ...r, [agent.agentId]: row }));
    });
    return () => {
      stale = true;
    };
    // the request is named by its key
  }, [api, accountId, agents.data, key]);

  const done = agents.data?.every((a) => rows[a.agentId]) ?? false;
  const sum = (field: 'conversations' | 'contained' | 'handoffs') =>
    Object.values(rows).reduce((n, r) => n + ('answer' in r ? r.answer.totals[field] : 0), 0);

  return (
    <section
      aria-labelledby="overview-title"
      className="dashboard overview"
      aria-busy={!done}
      data-start={request?.start_time}
      data-end={request?.end_time}
      data-granularity={request?.granularity}
      data-env={request?.client_env}
    >
      <h1 id="overview-title">Account overview</h1>
      <RangePicker selection={selection} onChange={setSelection} problem={range.error} />
      <ErrorNote error={agents.error} />
      {agents.data && agents.data.length === 0 && (
        <p>No agents yet: create one on the Agents page; its figures appear here once people talk to it.</p>
      )}
      <table className="overview-table">
        <caption>
          Each agent over the range (first response p50 is per agent: percentiles do not add up across agents)
        </caption>
        <thead>
          <tr>
            <th scope="col">Agent</th>
            <th scope="col">Conversations</th>
            <th scope="col">Containment</th>
            <th scope="col">Handoffs</th>
            <th scope="col">First response p50</th>
            <th scope="col">Conversations over the range</th>
          </tr>
        </thead>
        <tbody>
          {agents.data?.map((agent) => {
            const row = rows[agent.agentId];
            return (
              <tr key={agent.agentId} data-agent={agent.agentId}>
                <th scope="row">
                  <Link to={`/agents/${agent.agentId}/dashboard?${queryOf(selection)}`}>{agent.agentName}</Link>
                </th>
                {!row ? (
                  <td colSpan={5} className="hint">
                    {request ? 'Loading…' : 'No range'}
                  </td>
                ) : 'error' in row ? (
                  <td colSpan={5}>
                    <ErrorNote error={row.error} />
                  </td>
                ) : (
                  <>
                    <Cell id="conversations" value={row.answer.totals.conversations} format={formatCount} />
                    <Cell
                      id="containment"
                      value={rate(row.answer.totals.contained, row.answer.totals.conversations)}
                      format={formatPercent}
                    />
                    <Cell
                      id="handoffs"
                      value={rate(row.answer.totals.handoffs, row.answer.totals.conversations)}
                      format={formatPercent}
                    />
                    <Cell id="first-response-p50" value={row.answer.totals.first_response_ms.p50} format={formatMs} />
                    <td>
                      <Sparkline answer={row.answer} />
                    </td>
                  </>
                )}
              </tr>
            );
          })}
        </tbody>
        {done && agents.data && agents.data.length > 1 && (
          <tfoot>
            <tr data-agent="all">
              <th scope="row">All agents</th>
              <Cell id="conversations" value={sum('conversations')} format={formatCount} />
              <Cell id="containment" value={rate(sum('contained'), sum('conversations'))} format={formatPercent} />
              <Cell id="handoffs" value={rate(sum('handoffs'), sum('conversations'))} format={formatPercent} />
              <td />
              <td />
            </tr>
          </tfoot>
        )}
      </table>
    </section>
  );
}
