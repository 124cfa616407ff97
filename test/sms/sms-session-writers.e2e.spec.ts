import { WrongExpectedRevisionError } from '../../src/event-store/errors';
import { EVENT_STORE, type EventStore } from '../../src/event-store/event-store.port';
import { smsSessionStream } from '../../src/sms/sms-session.decider';
import { eventually } from '../helpers/conversations-fixture';
import { advanceClock } from '../helpers/keys-fixtures';
import { AGENT_NUMBER, delivered, newUserNumber, sendInbound, startSmsFixture, type SmsFixture } from './sms-fixture';

const DAY_S = 24 * 3600;

/**
 * The SMS API, the session timers and the process manager all write a number pair's session
 * stream. They share its one command handler, so each writer's append is the next one's cached
 * state: in one process, none of them ever decides on a stale state and retries (issue 53, where
 * three caches made each writer's append the next one's revision conflict).
 */
describe('SMS session writers in one process', () => {
  let f: SmsFixture;
  let store: EventStore;
  const conflicts: string[] = [];

  beforeAll(async () => {
    f = await startSmsFixture();
    store = f.t.app.get<EventStore>(EVENT_STORE);
    // the real store, its refusals of a stale expected revision noted on the way out
    const append = store.append.bind(store);
    jest.spyOn(store, 'append').mockImplementation(async (...args) => {
      try {
        return await append(...args);
      } catch (error) {
        if (error instanceof WrongExpectedRevisionError) conflicts.push(args[0]);
        throw error;
      }
    });
  });
  afterAll(async () => {
    jest.restoreAllMocks();
    await f.close();
  });

  it('API, timer, API, process manager, API in turn: every append succeeds at its first attempt', async () => {
    const user = newUserNumber();
    const stream = smsSessionStream(AGENT_NUMBER, user);
    const lastType = async () => (await store.readStream(stream, { direction: 'backwards', maxCount: 1 }))[0]?.type;

    // the API opens the session
    await sendInbound(f.t, f.connector, { from: user, text: 'opening hours' });
    await delivered(f.t, user, 1);
    // the idle timer warns
    await advanceClock(f.t, DAY_S);
    await delivered(f.t, user, 2);
    expect(await lastType()).toBe('SmsIdleWarningSent');
    // the API takes the reply; the agent ends the conversation, so the process manager ends the session
    await sendInbound(f.t, f.connector, { from: user, text: 'goodbye' });
    await eventually(async () => expect(await lastType()).toBe('SmsSessionEnded'), 5000);
    // the API opens the pair's next session on the same stream
    const next = await sendInbound(f.t, f.connector, { from: user, text: 'opening hours' });
    expect(next.status).toBe(200);
    expect(await lastType()).toBe('SmsUserMessageReceived');

    expect(conflicts.filter((id) => id === stream)).toEqual([]);
  });
});
