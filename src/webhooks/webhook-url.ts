/**
 * Where an endpoint may point (contract §13): https anywhere; plain http only to this machine's
 * loopback, and only when WEBHOOK_ALLOW_HTTP=1 (local receivers and tests). Credentials belong in
 * the endpoint's headers, not in its URL. Returns the problem, or null when the URL is acceptable.
 */
export function webhookUrlProblem(raw: string, allowHttp: boolean): string | null {
  if (raw.length > 2048) return 'url must be at most 2048 characters';
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return 'url must be an absolute URL such as https://example.com/webhooks';
  }
  if (url.username || url.password) return 'url must not carry credentials; send them in headers';
  if (url.protocol === 'https:') return null;
  if (url.protocol === 'http:') {
    if (!allowHttp) return 'url must use https';
    if (!isLoopback(url.hostname)) return 'url must use https (plain http is allowed only to a loopback host)';
    return null;
  }
  return 'url must use https';
}

/** localhost, 127.0.0.0/8 and ::1 (URL keeps IPv6 hosts in brackets). */
export function isLoopback(hostname: string): boolean {
  const host = hostname.toLowerCase();
  if (host === 'localhost' || host.endsWith('.localhost')) return true;
  if (host === '[::1]') return true;
  const octets = host.split('.');
  return octets.length === 4 && octets[0] === '127' && octets.every((o) => /^\d{1,3}$/.test(o) && Number(o) <= 255);
}
