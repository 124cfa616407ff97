import { outboundUrlProblem } from '../platform/outbound/outbound-url';

/**
 * Where an endpoint may point (contract §13 and the outbound rules of docs/outbound-http.md):
 * https to public hosts; with WEBHOOK_ALLOW_HTTP=1 also loopback, over http or https (local
 * receivers and tests), never private ranges. Credentials belong in the endpoint's headers, not
 * in its URL. Returns the problem, or null when the URL is acceptable. A name is judged again,
 * by its resolved addresses, at every delivery.
 */
export function webhookUrlProblem(raw: string, allowHttp: boolean): string | null {
  return outboundUrlProblem(raw, { allowLoopback: allowHttp });
}
