/**
 * `X-Host` against a connector's registered domain (interface.md, Authentication rule 2): the
 * domain itself or any subdomain of it. A scheme, port, path or trailing dot around the name is
 * ignored (browsers' Origin values carry a scheme); `evilexample.com` does not match `example.com`.
 */
export function hostMatches(presented: string, registered: string): boolean {
  const host = normaliseHost(presented);
  const domain = normaliseHost(registered);
  if (!host || !domain) return false;
  return host === domain || host.endsWith(`.${domain}`);
}

function normaliseHost(value: string): string {
  let host = value.trim().toLowerCase();
  host = host.replace(/^[a-z][a-z0-9+.-]*:\/\//, '');
  host = host.split(/[/?#]/, 1)[0];
  host = host.replace(/:\d*$/, '').replace(/\.$/, '');
  return /^[a-z0-9.-]+$/.test(host) && !host.includes('..') ? host : '';
}
