import http from 'node:http';
import { from } from '../helpers/from-address';
import { createAccount, operatorKey } from '../helpers/keys-fixtures';
import { expectEnvelope, startTestApp, type JsonResponse, type TestApp } from '../helpers/test-app';
import { BODY_LIMIT_BYTES } from '../../src/platform/config/config';
import { REFUSAL_HOLD_MS } from '../../src/platform/http/unread-bodies';

/** A body of about `bytes` bytes the agents route parses (and refuses as invalid: the bytes are what counts). */
const large = (bytes: number) => ({ name: 'big', padding: 'x'.repeat(bytes) });

/**
 * Issue 47, finding 2 (contract §21): the per-key limit counted requests, not bytes, so one
 * tenant's 1 MiB bodies took the event loop every tenant shares. Bytes are budgeted per client
 * address and per credential (BODY_BYTES_PER_S, BODY_BYTES_BURST): past either, 429 before the
 * body is read. A budget that refills at 1 KB/s here, so nothing refills within the test.
 */
describe('request body bytes budgeted per address and per credential', () => {
  let t: TestApp;
  let accountA: string;
  let keyA: string;
  let accountB: string;
  let keyB: string;

  beforeAll(async () => {
    t = await startTestApp({ BODY_BYTES_PER_S: '1000', BODY_BYTES_BURST: String(1024 * 1024) });
    accountA = await createAccount(t, 'Flooder');
    keyA = (await operatorKey(t, accountA)).key;
    accountB = await createAccount(t, 'Neighbour');
    keyB = (await operatorKey(t, accountB)).key;
  });
  afterAll(async () => t.close());

  const post = (address: string, account: string, key: string, body: unknown) =>
    from(address, `${t.url}/v1/accounts/${account}/agents`, { headers: { 'x-api-key': key }, body });

  const expectSpent = (r: JsonResponse) => {
    expectEnvelope(r, 429, 'RATE_LIMITED');
    expect(Number(r.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
  };

  it("past the credential's budget: 429 from any address; another tenant elsewhere is untouched", async () => {
    expect((await post('127.0.0.30', accountA, keyA, large(700_000))).status).toBe(400);
    expectSpent(await post('127.0.0.30', accountA, keyA, large(700_000)));
    // a new address does not buy the key a new budget
    expectSpent(await post('127.0.0.31', accountA, keyA, large(700_000)));
    // small bodies still fit what is left
    expect((await post('127.0.0.31', accountA, keyA, large(1000))).status).toBe(400);
    // tenant B on its own address: its budget is whole
    expect((await post('127.0.0.32', accountB, keyB, large(700_000))).status).toBe(400);
    const list = await from('127.0.0.33', `${t.url}/v1/accounts/${accountB}/agents`, {
      headers: { 'x-api-key': keyB },
    });
    expect(list.status).toBe(200);
  });

  it("past the address's budget: 429 whatever key it presents", async () => {
    expect((await post('127.0.0.34', accountA, keyA, large(10))).status).not.toBe(429);
    const fresh = (await operatorKey(t, accountB)).key;
    expect((await post('127.0.0.35', accountB, fresh, large(700_000))).status).toBe(400);
    const another = (await operatorKey(t, accountB)).key;
    expectSpent(await post('127.0.0.35', accountB, another, large(700_000)));
  });

  it('a chunked body (no Content-Length) is charged once read, before it is parsed', async () => {
    const key = (await operatorKey(t, accountB)).key;
    const chunked = (address: string) =>
      new Promise<number>((resolve, reject) => {
        const req = http.request(
          `${t.url}/v1/accounts/${accountB}/agents`,
          {
            method: 'POST',
            localAddress: address,
            headers: { 'content-type': 'application/json', 'x-api-key': key, 'transfer-encoding': 'chunked' },
          },
          (res) => {
            res.resume();
            res.on('end', () => resolve(res.statusCode ?? 0));
          },
        );
        req.on('error', reject);
        const text = JSON.stringify(large(700_000));
        req.write(text.slice(0, 1000));
        req.end(text.slice(1000));
      });
    expect(await chunked('127.0.0.36')).toBe(400);
    expect(await chunked('127.0.0.37')).toBe(429);
  });

  it('a refusal of a body still arriving is held a second, so a client looping on refusals is slowed', async () => {
    const key = (await operatorKey(t, accountB)).key;
    expect((await post('127.0.0.38', accountB, key, large(700_000))).status).toBe(400);
    const timed = async (body: unknown) => {
      const startedAt = performance.now();
      const response = await post('127.0.0.38', accountB, key, body);
      return { response, ms: performance.now() - startedAt };
    };
    const spent = await timed(large(700_000));
    expectSpent(spent.response);
    expect(spent.ms).toBeGreaterThanOrEqual(REFUSAL_HOLD_MS - 5);
    // over the body limit: 413 on its Content-Length, held the same
    const tooLarge = await timed(large(BODY_LIMIT_BYTES + 1000));
    expectEnvelope(tooLarge.response, 413, 'PAYLOAD_TOO_LARGE');
    expect(tooLarge.ms).toBeGreaterThanOrEqual(REFUSAL_HOLD_MS - 5);
  });
});
