import type { OutboundHttp } from '../platform/outbound/outbound-http';
import type { AttemptResult } from './retry-schedule';

interface WebhookRequest {
  url: string;
  body: string;
  headers: Record<string, string>;
  timeoutMs: number;
}

export type WebhookSender = (request: WebhookRequest) => Promise<AttemptResult>;

export const WEBHOOK_SENDER = Symbol('WebhookSender');

/**
 * One POST through the outbound module (address rules, pinned address, no redirects), answered by
 * its status line: the outcome is known once the receiver's status arrives (its body is drained
 * unread). No answer within `timeoutMs`, connection included, is a timeout.
 */
export function webhookSender(outbound: OutboundHttp): WebhookSender {
  return async (request) => {
    const result = await outbound.send({
      url: request.url,
      method: 'POST',
      headers: request.headers,
      body: request.body,
      timeoutMs: request.timeoutMs,
      maxResponseBytes: 0,
    });
    return 'error' in result ? { error: result.error } : { statusCode: result.status };
  };
}
