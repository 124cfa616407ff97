import { useStudio } from '../api/context';
import { AgentSettings } from '../settings/AgentSettings';
import { ErrorNote, Link, useLoad } from '../ui';
import { Branches } from './Branches';
import { Dashboard } from './Dashboard';
import { Deployments } from './Deployments';
import { TryIt } from './TryIt';

const TABS = [
  { id: 'dashboard', label: 'Dashboard' },
  { id: 'branches', label: 'Branches' },
  { id: 'deployments', label: 'Deployments' },
  { id: 'try', label: 'Try it' },
  { id: 'conversations', label: 'Conversations' },
  { id: 'settings', label: 'Settings' },
] as const;

/** A tab's path; from a branch, Try it opens on that branch's draft. */
const tabPath = (agentId: string, tab: string, branchId?: string) =>
  tab === 'try' && branchId && branchId !== 'main'
    ? `/agents/${agentId}/try?branch=${encodeURIComponent(branchId)}`
    : `/agents/${agentId}/${tab}`;

/** One agent: its dashboard (where it opens), branches (editing and merging), deployments and the debug chat, as tabs. */
export function AgentPage({ agentId, tab, branchId }: { agentId: string; tab: string; branchId?: string }) {
  const { api, session } = useStudio();
  const agent = useLoad(() => api.agent(agentId), [api, agentId]);
  // the dashboard reads the Analytics API, which needs `conversations`
  const tabs = TABS.filter((t) => t.id !== 'dashboard' || session.permissions.includes('conversations'));
  return (
    <section aria-labelledby="agent-title">
      <p className="crumbs">
        <Link to="/agents">Agents</Link> /
      </p>
      <h1 id="agent-title">{agent.data?.agentName ?? agentId}</h1>
      <ErrorNote error={agent.error} />
      <nav className="tabs" aria-label="Agent sections">
        {tabs.map((t) => (
          <Link key={t.id} to={tabPath(agentId, t.id, branchId)} className={t.id === tab ? 'tab current' : 'tab'}>
            {t.label}
          </Link>
        ))}
      </nav>
      {tab === 'dashboard' && <Dashboard agentId={agentId} />}
      {tab === 'branches' && <Branches agentId={agentId} branchId={branchId} />}
      {tab === 'deployments' && <Deployments agentId={agentId} />}
      {tab === 'try' && <TryIt agentId={agentId} />}
      {tab === 'settings' && <AgentSettings agentId={agentId} />}
    </section>
  );
}
