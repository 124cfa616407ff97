import { useEffect, useMemo, useState } from 'react';
import { ParleyApi } from './api/client';
import { loadHosts } from './api/config';
import { Studio } from './api/context';
import type { Hosts } from './api/http';
import { match, navigate, useRoute } from './router';
import { loadSession, saveSession, type Session } from './session';
import { Link, plainName } from './ui';
import { AGENT_TABS, AgentPage } from './pages/Agent';
import { Agents } from './pages/Agents';
import { Desk } from './pages/desk/Desk';
import { FiringAlerts } from './pages/desk/FiringAlerts';
import { Alerts } from './pages/Alerts';
import { Keys } from './pages/Keys';
import { OperatorRoutes } from './pages/OperatorRoutes';
import { Overview } from './pages/Overview';
import { Webhooks } from './pages/Webhooks';
import { SignIn } from './pages/SignIn';
import { NotFound } from './pages/NotFound';

export function App() {
  const [hosts, setHosts] = useState<Hosts | null>(null);
  const [session, setSession] = useState<Session | null>(loadSession);
  const route = useRoute();
  const [menuOpen, setMenuOpen] = useState(false);
  useEffect(() => {
    loadHosts().then(setHosts);
  }, []);
  const api = useMemo(() => (session && hosts ? new ParleyApi(session, hosts) : null), [session, hosts]);

  if (!hosts) return <p role="status">Loading…</p>;
  const signIn = (next: Session) => {
    saveSession(next);
    setSession(next);
    // a deep link opened signed out (a new tab) is where sign-in lands, when the session may open it
    const deep = route.path !== '/' && (next.mode === 'operator') === route.path.startsWith('/operator');
    if (deep && (next.mode === 'operator' || mayOpen(route.path, next.permissions))) {
      navigate(`${route.path}${window.location.search}`);
      return;
    }
    // a desk-only key has nothing to build: it signs in to the desk
    const desk = next.permissions.includes('desk') && !next.permissions.includes('agents');
    navigate(next.mode === 'operator' ? '/operator' : desk ? '/desk' : '/agents');
  };
  const signOut = () => {
    saveSession(null);
    setSession(null);
    navigate('/');
  };
  const can = (permission: string) => session?.mode === 'key' && session.permissions.includes(permission);
  if (!session || !api) return <SignIn hosts={hosts} onSignIn={signIn} />;

  return (
    <Studio.Provider value={{ api, session, signIn, signOut }}>
      <a href="#content" className="skip">
        Skip to content
      </a>
      <header className="top">
        <strong>Parley Studio</strong>
        <button
          type="button"
          className="menu-toggle"
          aria-expanded={menuOpen}
          aria-controls="main-nav"
          onClick={() => setMenuOpen((open) => !open)}
        >
          Menu
        </button>
        <div id="main-nav" className={menuOpen ? 'top-menu open' : 'top-menu'}>
          {/* a link followed closes the menu (narrow screens) */}
          <nav aria-label="Main" onClick={() => setMenuOpen(false)}>
            {/* each page shows only to a key that may use it: a desk-only key sees the desk */}
            {can('agents') && <Link to="/agents">Agents</Link>}
            {can('conversations') && <Link to="/overview">Overview</Link>}
            {can('keys') && <Link to="/keys">Keys</Link>}
            {can('alerts') && <Link to="/alerts">Alerts</Link>}
            {can('alerts') && <Link to="/webhooks">Webhooks</Link>}
            {can('alerts') && <Link to="/alerts/firing">Firing</Link>}
            {can('desk') && <Link to="/desk">Desk</Link>}
            {session.mode === 'operator' && <Link to="/operator">Accounts</Link>}
            {session.mode === 'operator' && <Link to="/operator/read-models">Read models</Link>}
          </nav>
          <span className="who">
            {session.mode === 'operator' ? 'operator' : `key ${plainName(session.label)} · ${session.accountId}`}
          </span>
          <button type="button" onClick={signOut}>
            Sign out
          </button>
        </div>
      </header>
      <main id="content">
        <Routes path={route.path} session={session} />
      </main>
    </Studio.Provider>
  );
}

/** The permission each top-level page needs; an agent's pages need `agents` or `conversations`. */
const PAGE_PERMISSION: Record<string, string> = {
  '/desk': 'desk',
  '/alerts/firing': 'alerts',
  '/keys': 'keys',
  '/alerts': 'alerts',
  '/webhooks': 'alerts',
  '/overview': 'conversations',
};

function mayOpen(path: string, permissions: string[]): boolean {
  const needs = PAGE_PERMISSION[path];
  if (needs) return permissions.includes(needs);
  return permissions.includes('agents') || permissions.includes('conversations');
}

function Routes({ path, session }: { path: string; session: Session }) {
  if (session.mode === 'operator') return <OperatorRoutes path={path} />;
  if (path === '/' || path === '/agents') {
    // a key that builds nothing has no agents list: it starts where it can work
    if (session.permissions.includes('agents')) return <Agents />;
    if (session.permissions.includes('desk')) return <Desk />;
  }
  if (PAGE_PERMISSION[path] || path.startsWith('/agents'))
    if (!mayOpen(path, session.permissions)) return <NotFound what="This page is not open to your key." />;
  if (path === '/desk') return <Desk />;
  if (path === '/alerts/firing') return <FiringAlerts />;
  if (path === '/keys') return <Keys accountId={session.accountId!} />;
  if (path === '/alerts') return <Alerts />;
  if (path === '/webhooks') return <Webhooks />;
  if (path === '/overview') return <Overview />;
  if (path === '/' || path === '/agents') return <Agents />;
  let m: Record<string, string> | null;
  if ((m = match('/agents/:agentId/conversations/:conversationId', path)))
    return <AgentPage agentId={m.agentId} tab="conversations" conversationId={m.conversationId} />;
  if ((m = match('/agents/:agentId/branches/:branchId', path)))
    return <AgentPage agentId={m.agentId} tab="branches" branchId={m.branchId} />;
  if ((m = match('/agents/:agentId/:tab', path)) && AGENT_TABS.includes(m.tab))
    return <AgentPage agentId={m.agentId} tab={m.tab} />;
  // an agent opens on its dashboard, for a key that may read its figures (`conversations`)
  if ((m = match('/agents/:agentId', path)))
    return (
      <AgentPage agentId={m.agentId} tab={session.permissions.includes('conversations') ? 'dashboard' : 'branches'} />
    );
  return <NotFound />;
}
