import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { eventually } from '../helpers/conversations-fixture';
import { advanceClock } from '../helpers/keys-fixtures';
import {
  AGENT_NUMBER,
  carrierMessages,
  newUserNumber,
  sendInbound,
  sendOutbound,
  startSmsFixture,
  type SmsFixture,
} from './sms-fixture';

interface Received {
  method: string;
  url: string;
  headers: http.IncomingHttpHeaders;
  body: string;
}

/** A Twilio-compatible Messages endpoint that records what it receives and answers as told. */
class FakeCarrier {
  readonly received: Received[] = [];
  private answers: number[] = [];
  private server!: http.Server;
  url = '';
  private seq = 0;

  static async start(): Promise<FakeCarrier> {
    const carrier = new FakeCarrier();
    carrier.server = http.createServer((req, res) => {
      let body = '';
      req.setEncoding('utf8').on('data', (chunk) => (body += chunk));
      req.on('end', () => {
        carrier.received.push({ method: req.method!, url: req.url!, headers: req.headers, body });
        const status = carrier.answers.shift() ?? 201;
        res.writeHead(status, { 'content-type': 'application/json' });
        res.end(
          JSON.stringify(
            status < 300 ? { sid: `SMfake${++carrier.seq}`, status: 'queued' } : { code: 21211, message: 'refused' },
          ),
        );
      });
    });
    await new Promise<void>((resolve) => carrier.server.listen(0, '127.0.0.1', resolve));
    carrier.url = `http://127.0.0.1:${(carrier.server.address() as AddressInfo).port}`;
    return carrier;
  }

  answer(...statuses: number[]) {
    this.answers.push(...statuses);
  }

  waitFor(count: number): Promise<Received[]> {
    return eventually(() => {
      if (this.received.length < count) throw new Error(`expected ${count} requests, have ${this.received.length}`);
      return this.received.slice();
    }, 5000);
  }

  close() {
    return new Promise((resolve) => this.server.close(resolve));
  }
}

describe('SMS over the HTTP carrier (Twilio-compatible)', () => {
  let carrier: FakeCarrier;
  let f: SmsFixture;

  beforeAll(async () => {
    carrier = await FakeCarrier.start();
    f = await startSmsFixture({
      SMS_CARRIER: 'http',
      SMS_CARRIER_URL: `${carrier.url}/`,
      SMS_CARRIER_ACCOUNT_SID: 'AC123',
      SMS_CARRIER_AUTH_TOKEN: 'tok-secret',
    });
  });
  afterAll(async () => {
    await f.close();
    await carrier.close();
  });

  it('posts each text form-encoded with basic auth to the Messages resource, and records the carrier sid', async () => {
    const user = newUserNumber();
    const r = await sendOutbound(f, { user_number: user, message: 'Your code is 1234 & valid for 5 min' });
    expect(r.status).toBe(202);
    const [sent] = await carrier.waitFor(1);
    expect(sent.method).toBe('POST');
    expect(sent.url).toBe('/2010-04-01/Accounts/AC123/Messages.json');
    expect(sent.headers['content-type']).toBe('application/x-www-form-urlencoded');
    expect(sent.headers.authorization).toBe(`Basic ${Buffer.from('AC123:tok-secret').toString('base64')}`);
    expect(Object.fromEntries(new URLSearchParams(sent.body))).toEqual({
      To: user,
      From: AGENT_NUMBER,
      Body: 'Your code is 1234 & valid for 5 min',
    });
    const [recorded] = await eventually(async () => {
      const messages = await carrierMessages(f.t, user);
      expect(messages).toHaveLength(1);
      return messages;
    });
    expect(recorded).toMatchObject({
      conversation_id: r.body.conversation_id,
      status: 'delivered',
      carrier: 'http',
      provider_message_id: 'SMfake1',
    });
  });

  it('retries a 5xx on the platform clock, in order, and sends each text once', async () => {
    const user = newUserNumber();
    carrier.answer(503);
    const before = carrier.received.length;
    await sendInbound(f.t, f.connector, { from: user, text: 'where is my parcel' });
    await carrier.waitFor(before + 1);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(carrier.received).toHaveLength(before + 1);
    await advanceClock(f.t, 30);
    const all = await carrier.waitFor(before + 3);
    const bodies = all.slice(before).map((req) => new URLSearchParams(req.body).get('Body'));
    // the refused answer, then the answer again and the send_sms text behind it
    expect(bodies).toEqual([
      'I will text you the tracking link.',
      'I will text you the tracking link.',
      'Track it here: https://track.test/42',
    ]);
    await eventually(async () =>
      expect((await carrierMessages(f.t, user)).map((m) => m.status)).toEqual(['delivered', 'delivered']),
    );
    await advanceClock(f.t, 3600);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(carrier.received).toHaveLength(before + 3);
  });

  it('a 4xx is final: the text is recorded as failed and not sent again', async () => {
    const user = newUserNumber();
    carrier.answer(400);
    const before = carrier.received.length;
    await sendOutbound(f, { user_number: user, message: 'Will be refused' });
    await carrier.waitFor(before + 1);
    const [failed] = await eventually(async () => {
      const messages = await carrierMessages(f.t, user);
      expect(messages).toHaveLength(1);
      return messages;
    });
    expect(failed).toMatchObject({ status: 'failed', carrier: 'http', error: expect.stringContaining('400') });
    await advanceClock(f.t, 3600);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(carrier.received).toHaveLength(before + 1);
  });
});
