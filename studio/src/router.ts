import { useEffect, useState } from 'react';

/** Studio's routes live under /studio; the server answers index.html for every one of them. */
export const BASE = '/studio';

export function navigate(to: string): void {
  window.history.pushState(null, '', `${BASE}${to}`);
  window.dispatchEvent(new PopStateEvent('popstate'));
}

/** The path below /studio, and its query, following back/forward and navigate(). */
export function useRoute(): { path: string; query: URLSearchParams } {
  const read = () => ({
    path: window.location.pathname.slice(BASE.length) || '/',
    query: new URLSearchParams(window.location.search),
  });
  const [route, setRoute] = useState(read);
  useEffect(() => {
    const update = () => setRoute(read());
    window.addEventListener('popstate', update);
    return () => window.removeEventListener('popstate', update);
  }, []);
  return route;
}

/** Matches `/agents/:agentId/...` style patterns; returns the named parts or null. */
export function match(pattern: string, path: string): Record<string, string> | null {
  const want = pattern.split('/').filter(Boolean);
  const have = path.split('/').filter(Boolean);
  if (want.length !== have.length) return null;
  const params: Record<string, string> = {};
  for (let i = 0; i < want.length; i++) {
    if (want[i].startsWith(':')) params[want[i].slice(1)] = decodeURIComponent(have[i]);
    else if (want[i] !== have[i]) return null;
  }
  return params;
}
