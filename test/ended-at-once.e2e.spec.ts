import { EVENT_STORE, type EventStore } from '../src/event-store/event-store.port';
import { callAccount, inboundCall, op, type CallAccount } from './calls/calls-fixture';
import { advanceClock } from './helpers/keys-fixtures';
import { request, type JsonResponse, type TestApp } from './helpers/test-app';
import { callingAccount, callStatus, placeCall, type CallingAccount } from './outbound-calls/outbound-calls-fixture';
import {
  conversation,
  delivered,
  newUserNumber,
  sendInbound,
  sendOutbound,
  startSmsFixture,
  type SmsFixture,
} from './sms/sms-fixture';
import { patient } from './support/patience';

const ROUNDS = 5;
/** calls that end together: each round's ends are recorded while every one of them is watched */
const AT_ONCE = 8;
const SIM = { pickUp: 1, answerAfter: 3, listen: 5 };
const DAY_S = 24 * 3600;

/**
 * Polls `probe` back to back, as a client waiting for an end does, until `ended` holds; then at
 * once runs `then`. Bounded: a status that never ends fails the round.
 */
async function atTheEnd<T>(
  probe: () => Promise<JsonResponse>,
  ended: (r: JsonResponse) => boolean,
  then: (r: JsonResponse) => Promise<T>,
): Promise<T> {
  const deadline = Date.now() + patient(5000);
  for (;;) {
    const r = await probe();
    if (ended(r)) return then(r);
    if (Date.now() > deadline) throw new Error(`never ended; last answer ${r.status} ${JSON.stringify(r.body)}`);
  }
}

/**
 * Issue 47: an answer that says a call or session ended means its conversation reads ended
 * (`in_progress: false`) through the Conversations API from that moment: contract §2's
 * readable-at-once, applied to the end. Each round reads the conversation the moment the answer
 * says ended, while the end is still being recorded behind it, so the race is run every round.
 */
describe('an ended call or session reads ended at once (issue 47)', () => {
  let f: SmsFixture;
  let t: TestApp;
  let outbound: CallingAccount;
  let inbound: CallAccount;

  beforeAll(async () => {
    f = await startSmsFixture({ OUTBOUND_RING_TIMEOUT_S: '30', OUTBOUND_MAX_CONCURRENT_CALLS: '40' });
    t = f.t;
    outbound = await callingAccount(t, 'Caller Co', 'Hello from the caller.', '+15550100099');
    inbound = await callAccount(t, 'Answer Co', '+15550100077');
  });
  afterAll(async () => f.close());

  const read = (accountId: string, agentId: string, key: string, id: string) =>
    request(`${t.url}/v3/${accountId}/${agentId}/conversations/${id}`, { headers: { 'x-api-key': key } });

  it('outbound calls: once a status is final, its conversation is not in progress', async () => {
    const seen: Array<[string, number, boolean]> = [];
    for (let round = 0; round < ROUNDS; round++) {
      const sids: string[] = [];
      for (let i = 0; i < AT_ONCE; i++) {
        const placed = await placeCall(t, outbound.token, {
          to_number: `+1555124${String(round).padStart(2, '0')}${String(i).padStart(2, '0')}`,
        });
        sids.push(placed.body.call_sid);
      }
      // answered: the conversations run, the callees listen
      await advanceClock(t, SIM.pickUp + SIM.answerAfter);
      const watching = sids.map((sid) =>
        atTheEnd(
          () => callStatus(t, outbound.token, sid),
          (r) => r.status !== 200 || r.body.status === 'success' || r.body.status === 'failure',
          async (r): Promise<[string, number, boolean]> => {
            const c = await read(outbound.accountId, outbound.agentId, outbound.token, sid);
            return [r.body.status ?? r.status, c.status, c.body.in_progress];
          },
        ),
      );
      // the callees hang up together while their clients watch the statuses
      await advanceClock(t, SIM.listen);
      seen.push(...(await Promise.all(watching)));
    }
    expect(seen).toEqual(Array(ROUNDS * AT_ONCE).fill(['success', 200, false]));
  });

  /**
   * An inbound call's end is recorded within the request that ends it, so the window a status
   * read can fall into is one commit: rare to hit, however many calls end together. What closes
   * it whatever the timing is the log's order, read here too: the conversation ends first.
   */
  const logOrder = async (sid: string) => {
    const store = t.app.get<EventStore>(EVENT_STORE);
    const ended = (await store.readStream(`conversation-${sid}`)).find((e) => e.type === 'ConversationEnded');
    const told = (await store.readStream(`inbound-call-${sid}`)).find((e) => e.type === 'InboundCallEnded');
    return ended && told && ended.position < told.position ? 'conversation ended first' : 'call ended first';
  };
  type Ended = [string, number, boolean, string];

  it('inbound calls: once a status says ended, its conversation is not in progress', async () => {
    const seen: Ended[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      const sids: string[] = [];
      for (let i = 0; i < AT_ONCE; i++) {
        const call = await inboundCall(t, {
          from: `+1555765${String(round).padStart(2, '0')}${String(i).padStart(2, '0')}`,
          to: inbound.number,
          utterances: ['when do you open'],
          hang_up: false,
        });
        expect(call.body.status).toBe('in-progress');
        sids.push(call.body.call_sid);
      }
      const watching = sids.map((sid) =>
        atTheEnd(
          () => request(`${t.url}/admin/v1/carrier/inbound-calls/${sid}`, { headers: op(t) }),
          (r) => r.status !== 200 || r.body.status !== 'in-progress',
          async (r): Promise<Ended> => {
            const c = await read(inbound.accountId, inbound.agentId, inbound.key, sid);
            return [r.body.status ?? r.status, c.status, c.body.in_progress, await logOrder(sid)];
          },
        ),
      );
      // the callers hang up together while the statuses are watched
      const hungUp = await Promise.all(
        sids.map((sid) =>
          request(`${t.url}/admin/v1/carrier/inbound-calls/${sid}/hang-up`, { method: 'POST', headers: op(t) }),
        ),
      );
      expect(hungUp.map((r) => r.body.status)).toEqual(Array(AT_ONCE).fill('ended'));
      seen.push(...(await Promise.all(watching)));
    }
    expect(seen).toEqual(Array(ROUNDS * AT_ONCE).fill(['ended', 200, false, 'conversation ended first']));
  });

  it('an SMS session: once the clock has run its end (10 minutes past the warning), its conversation is ended', async () => {
    const seen: Array<[number, boolean]> = [];
    for (let i = 0; i < ROUNDS; i++) {
      const user = newUserNumber();
      const opened = await sendInbound(t, f.connector, { from: user, text: 'when are you open' });
      await delivered(t, user, 1);
      await advanceClock(t, DAY_S);
      await delivered(t, user, 2);
      // the warning's 10 minutes pass without a reply: the session ends
      await advanceClock(t, 10 * 60);
      const c = await conversation(f, opened.body.conversation_id);
      seen.push([c.status, c.body.in_progress]);
    }
    expect(seen).toEqual(Array(ROUNDS).fill([200, false]));
  });

  it('an SMS session an outbound request replaced: ended once the new one is answered', async () => {
    const seen: Array<[number, boolean]> = [];
    for (let i = 0; i < ROUNDS * 4; i++) {
      const user = newUserNumber();
      const first = await sendOutbound(f, { user_number: user, message: `Notice ${i}.` });
      expect(first.status).toBe(202);
      const second = await sendOutbound(f, { user_number: user, message: `Notice ${i}, again.` });
      expect(second.status).toBe(202);
      const c = await conversation(f, first.body.conversation_id);
      seen.push([c.status, c.body.in_progress]);
    }
    expect(seen).toEqual(Array(ROUNDS * 4).fill([200, false]));
  });
});
