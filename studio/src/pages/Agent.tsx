import { useEffect } from 'react';
import { useStudio } from '../api/context';
import { ApiError } from '../api/http';
import { AgentSettings } from '../settings/AgentSettings';
import { ErrorNote, Link, Name, plainName, useLoad } from '../ui';
import { Branches } from './Branches';
import { ConversationView } from './ConversationView';
import { Conversations } from './Conversations';
import { Dashboard } from './Dashboard';
import { Deployments } from './Deployments';
import { NotFound } from './NotFound';
import { TryIt } from './TryIt';

/**
 * Each tab, and the permissions whose API it reads (any one): figures need `conversations`, building
 * needs `agents`; the conversations list answers basic fields to a key with `agents` (interface.md).
 */
const TABS = [
  { id: 'dashboard', label: 'Dashboard', needs: ['conversations'] },
  { id: 'branches', label: 'Branches', needs: ['agents'] },
  { id: 'deployments', label: 'Deployments', needs: ['agents'] },
  { id: 'try', label: 'Try it', needs: ['agents'] },
  { id: 'conversations', label: 'Conversations', needs: ['agents', 'conversations'] },
  { id: 'settings', label: 'Settings', needs: ['agents'] },
] as const;

export const AGENT_TABS: string[] = TABS.map((t) => t.id);

/** A tab's path; from a branch, Try it opens on that branch's draft. */
const tabPath = (agentId: string, tab: string, branchId?: string) =>
  tab === 'try' && branchId && branchId !== 'main'
    ? `/agents/${agentId}/try?branch=${encodeURIComponent(branchId)}`
    : `/agents/${agentId}/${tab}`;

/**
 * One agent: its dashboard (where it opens), branches (editing and merging), deployments, the debug chat
 * and its conversations, as tabs that stay on a conversation's page. An agent that does not exist is a
 * not-found page, not an editor whose every request fails.
 */
export function AgentPage({
  agentId,
  tab,
  branchId,
  conversationId,
}: {
  agentId: string;
  tab: string;
  branchId?: string;
  conversationId?: string;
}) {
  const { api, session } = useStudio();
  const agent = useLoad(() => api.agent(agentId), [api, agentId]);
  const error = agent.error instanceof ApiError ? agent.error : null;
  const title = agent.data ? plainName(agent.data.agentName) : null;
  useEffect(() => {
    if (!title) return;
    document.title = `${title} · Parley Studio`;
    return () => {
      document.title = 'Parley Studio';
    };
  }, [title]);
  // a key with `conversations` only may not read the agent itself (403): its conversations still open
  const forbidden = error?.status === 403;
  if (error && (error.status === 404 || error.code === 'AGENT_NOT_FOUND'))
    return <NotFound what={`There is no agent ${agentId} in this account.`} />;
  const tabs = TABS.filter((t) => t.needs.some((p) => session.permissions.includes(p)));
  if (!tabs.some((t) => t.id === tab)) return <NotFound what="This page is not open to your key." />;
  const name = agent.data ? plainName(agent.data.agentName) : agentId;
  const current = tabs.find((t) => t.id === tab)!;
  if (agent.loading && !agent.data) return <p role="status">Loading…</p>;
  return (
    <section aria-labelledby="agent-title" className="agent">
      <nav aria-label="Breadcrumb" className="crumbs">
        <Link to="/agents">Agents</Link> / <Link to={`/agents/${agentId}`}>{<Name>{name}</Name>}</Link> /{' '}
        {conversationId ? (
          <>
            <Link to={`/agents/${agentId}/conversations`}>Conversations</Link> / <code>{conversationId}</code>
          </>
        ) : (
          <span aria-current="page">{current.label}</span>
        )}
      </nav>
      <h1 id="agent-title" className="agent-title">
        <Name>{name}</Name>
      </h1>
      {!forbidden && <ErrorNote error={agent.error} />}
      <nav className="tabs" aria-label="Agent sections">
        {tabs.map((t) => (
          <Link
            key={t.id}
            to={tabPath(agentId, t.id, branchId)}
            className={t.id === tab ? 'tab current' : 'tab'}
            current={t.id === tab}
          >
            {t.label}
          </Link>
        ))}
      </nav>
      {tab === 'dashboard' && <Dashboard agentId={agentId} />}
      {tab === 'branches' && <Branches agentId={agentId} branchId={branchId} />}
      {tab === 'deployments' && <Deployments agentId={agentId} />}
      {tab === 'try' && <TryIt agentId={agentId} />}
      {tab === 'settings' && <AgentSettings agentId={agentId} />}
      {tab === 'conversations' && !conversationId && <Conversations agentId={agentId} />}
      {tab === 'conversations' && conversationId && (
        <ConversationView agentId={agentId} conversationId={conversationId} />
      )}
    </section>
  );
}
