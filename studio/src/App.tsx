import { useEffect, useMemo, useState } from 'react';
import { ParleyApi } from './api/client';
import { loadHosts } from './api/config';
import { Studio } from './api/context';
import type { Hosts } from './api/http';
import { match, navigate, useRoute } from './router';
import { loadSession, saveSession, type Session } from './session';
import { Link } from './ui';
import { AgentPage } from './pages/Agent';
import { Agents } from './pages/Agents';
import { ConversationView } from './pages/ConversationView';
import { Conversations } from './pages/Conversations';
import { Desk } from './pages/desk/Desk';
import { FiringAlerts } from './pages/desk/FiringAlerts';
import { Alerts } from './pages/Alerts';
import { Keys } from './pages/Keys';
import { OperatorRoutes } from './pages/OperatorRoutes';
import { Overview } from './pages/Overview';
import { Webhooks } from './pages/Webhooks';
import { SignIn } from './pages/SignIn';

export function App() {
  const [hosts, setHosts] = useState<Hosts | null>(null);
  const [session, setSession] = useState<Session | null>(loadSession);
  const route = useRoute();
  useEffect(() => {
    loadHosts().then(setHosts);
  }, []);
  const api = useMemo(() => (session && hosts ? new ParleyApi(session, hosts) : null), [session, hosts]);

  if (!hosts) return <p role="status">Loading…</p>;
  const signIn = (next: Session) => {
    saveSession(next);
    setSession(next);
    // a desk-only key has nothing to build: it signs in to the desk (as does anyone who opened /desk)
    const desk = next.permissions.includes('desk') && (!next.permissions.includes('agents') || route.path === '/desk');
    navigate(next.mode === 'operator' ? '/operator' : desk ? '/desk' : '/agents');
  };
  const signOut = () => {
    saveSession(null);
    setSession(null);
    navigate('/');
  };
  if (!session || !api) return <SignIn hosts={hosts} onSignIn={signIn} />;

  return (
    <Studio.Provider value={{ api, session, signIn, signOut }}>
      <a href="#content" className="skip">
        Skip to content
      </a>
      <header className="top">
        <strong>Parley Studio</strong>
        <nav aria-label="Main">
          {session.mode === 'key' && <Link to="/agents">Agents</Link>}
          {session.mode === 'key' && session.permissions.includes('conversations') && (
            <Link to="/overview">Overview</Link>
          )}
          {session.mode === 'key' && <KeyNav />}
          {session.mode === 'key' && session.permissions.includes('alerts') && <Link to="/alerts/firing">Firing</Link>}
          {session.mode === 'key' && session.permissions.includes('desk') && <Link to="/desk">Desk</Link>}
          {session.mode === 'operator' && <Link to="/operator">Accounts</Link>}
          {session.mode === 'operator' && <Link to="/operator/read-models">Read models</Link>}
        </nav>
        <span className="who">
          {session.mode === 'operator' ? 'operator' : `key ${session.label} · ${session.accountId}`}
        </span>
        <button type="button" onClick={signOut}>
          Sign out
        </button>
      </header>
      <main id="content">
        <Routes path={route.path} session={session} />
      </main>
    </Studio.Provider>
  );
}

function Routes({ path, session }: { path: string; session: Session }) {
  if (session.mode === 'operator') return <OperatorRoutes path={path} />;
  if (path === '/desk') return <Desk />;
  if (path === '/alerts/firing') return <FiringAlerts />;
  if (path === '/keys') return <Keys accountId={session.accountId!} />;
  if (path === '/alerts') return <Alerts />;
  if (path === '/webhooks') return <Webhooks />;
  if (path === '/overview') return <Overview />;
  let m: Record<string, string> | null;
  if ((m = match('/agents/:agentId/conversations/:conversationId', path)))
    return <ConversationView agentId={m.agentId} conversationId={m.conversationId} />;
  if ((m = match('/agents/:agentId/conversations', path))) return <Conversations agentId={m.agentId} />;
  if ((m = match('/agents/:agentId/branches/:branchId', path)))
    return <AgentPage agentId={m.agentId} tab="branches" branchId={m.branchId} />;
  if ((m = match('/agents/:agentId/:tab', path))) {
    if (m.tab === 'conversations') return <Conversations agentId={m.agentId} />;
    return <AgentPage agentId={m.agentId} tab={m.tab} />;
  }
  // an agent opens on its dashboard, for a key that may read its figures (`conversations`)
  if ((m = match('/agents/:agentId', path)))
    return (
      <AgentPage agentId={m.agentId} tab={session.permissions.includes('conversations') ? 'dashboard' : 'branches'} />
    );
  return <Agents />;
}

/** Keys, alerts and webhook endpoints: account-wide pages beside the agents. */
function KeyNav() {
  return (
    <>
      <Link to="/keys">Keys</Link>
      <Link to="/alerts">Alerts</Link>
      <Link to="/webhooks">Webhooks</Link>
    </>
  );
}
