import { SmsCarrierError, type OutgoingSms, type SmsCarrier } from './sms-carrier.port';

export interface HttpCarrierOptions {
  baseUrl: string;
  accountSid: string;
  authToken: string;
  timeoutMs: number;
}

/**
 * A Twilio-compatible REST API: `POST {base}/2010-04-01/Accounts/{sid}/Messages.json`, form-encoded
 * `To`, `From`, `Body`, HTTP basic auth with the account sid and auth token; 2xx answers `{sid}`.
 * Timeouts, network errors, 408, 429 and 5xx may pass if tried again; any other answer is final.
 */
export class HttpSmsCarrier implements SmsCarrier {
  readonly name = 'http' as const;
  private readonly url: string;
  private readonly authorization: string;

  constructor(private readonly options: HttpCarrierOptions) {
    this.url = `${options.baseUrl}/2010-04-01/Accounts/${encodeURIComponent(options.accountSid)}/Messages.json`;
    this.authorization = `Basic ${Buffer.from(`${options.accountSid}:${options.authToken}`).toString('base64')}`;
  }

  async send(message: OutgoingSms): Promise<{ providerMessageId: string }> {
    let response: Response;
    try {
      response = await fetch(this.url, {
        method: 'POST',
        headers: {
          authorization: this.authorization,
          'content-type': 'application/x-www-form-urlencoded',
          accept: 'application/json',
        },
        body: new URLSearchParams({ To: message.to, From: message.from, Body: message.text }).toString(),
        signal: AbortSignal.timeout(this.options.timeoutMs),
      });
    } catch (error) {
      throw new SmsCarrierError(`carrier unreachable: ${error instanceof Error ? error.message : String(error)}`, true);
    }
    const text = await response.text().catch(() => '');
    if (!response.ok) {
      const retryable = response.status === 408 || response.status === 429 || response.status >= 500;
      throw new SmsCarrierError(`carrier answered ${response.status}: ${text.slice(0, 200)}`, retryable);
    }
    let sid: unknown;
    try {
      sid = (JSON.parse(text) as { sid?: unknown }).sid;
    } catch {
      sid = undefined;
    }
    // accepted without an id we can read: still accepted (sending again would send twice)
    return { providerMessageId: typeof sid === 'string' && sid ? sid : '' };
  }
}
