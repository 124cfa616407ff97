import { request } from '../helpers/test-app';
import { advanceClock, operatorKey, platformNow } from '../helpers/keys-fixtures';
import { patient } from '../support/patience';
import {
  ChatClient,
  connect,
  DeskClient,
  joined,
  op,
  refusedHandshake,
  session,
  startMessagingFixture,
  token,
  type MessagingFixture,
} from './messaging-fixture';
import type { Json } from '../helpers/json';

/**
 * Sockets that outlive their credential end with it (issue 30): a desk socket closes when its key
 * is deleted (4403) or expires (4401), a chat socket when its access token expires (4401), and a
 * key holds at most MESSAGING_MAX_DESK_SOCKETS_PER_KEY desk sockets at once.
 */

const queued = (sessionId: string) => (frame: Json) =>
  frame.type === 'QUEUE_UPDATED' && frame.queue.some((q: Json) => q.session_id === sessionId);

/** The socket's close, or a failure naming what did not close within the bound. */
function closedWithin(
  closed: Promise<{ code: number; reason: string }>,
  ms: number,
  what: string,
): Promise<{ code: number; reason: string }> {
  let timer: NodeJS.Timeout;
  const timeout = new Promise<never>(
    (_, reject) => (timer = setTimeout(() => reject(new Error(`${what} still open after ${ms} ms`)), ms)),
  );
  return Promise.race([closed, timeout]).finally(() => clearTimeout(timer));
}

/** Whether the socket closed within a short window (for "not yet" checks). */
async function closesWithin(closed: Promise<unknown>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout;
  const result = await Promise.race([
    closed.then(() => true),
    new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(false), ms))),
  ]);
  clearTimeout(timer!);
  return result;
}

describe('sockets end with their credential', () => {
  let f: MessagingFixture;
  let bearer: string;

  async function deskKey(name: string, expiresAt?: string): Promise<{ id: string; key: string }> {
    const created = await operatorKey(f.t, f.account.accountId, {
      name,
      permissions: ['desk'],
      ...(expiresAt ? { expiresAt } : {}),
    });
    return { id: created.id, key: created.key };
  }

  async function handedOff(): Promise<{ id: string; user: ChatClient }> {
    const id = await session(f, bearer);
    const { client: user } = await connect(f, id, bearer);
    await joined(user);
    user.send({ type: 'EVENT_TYPE_USER_MESSAGE', payload: { text: 'human agent please' } });
    await user.next('EVENT_TYPE_SERVICE_AGENT_TRIGGERED_HANDOFF');
    return { id, user };
  }

  beforeAll(async () => {
    // sessions must not go idle while the clock is moved past a token's or a key's lifetime
    f = await startMessagingFixture({
      MESSAGING_HANDOFF_TIMEOUT_S: '86400',
      MESSAGING_SESSION_IDLE_S: '86400',
      MESSAGING_MAX_DESK_SOCKETS_PER_KEY: '2',
    });
    bearer = await token(f);
  });
  afterAll(async () => f.close());

  it('a deleted key: its desk socket closes with 4403, and an ACCEPT sent meanwhile is not acted on', async () => {
    const doomed = await deskKey('Dana (desk)');
    const other = await deskKey('Sam (desk)');
    const dana = await DeskClient.open(f.t.url, doomed.key, 'Dana');
    const sam = await DeskClient.open(f.t.url, other.key, 'Sam');
    const { id, user } = await handedOff();
    await dana.next(queued(id));
    await sam.next(queued(id));

    // Dana's client does not read while the key is deleted, so it has not seen any close and its
    // ACCEPT goes out after the deletion answered: the frame that races the close
    dana.ws.pause();
    const deleted = await request(`${f.t.url}/v1/accounts/${f.account.accountId}/api-keys/${doomed.id}`, {
      method: 'DELETE',
      headers: op(f.t),
    });
    expect(deleted.status).toBe(204);
    dana.send({ type: 'ACCEPT', session_id: id });
    dana.ws.resume();
    expect(await closedWithin(dana.closed, patient(2000), 'the deleted key’s desk socket')).toEqual({
      code: 4403,
      reason: 'credential revoked',
    });
    expect(dana.frames.some((frame) => frame.type === 'SESSION_ACCEPTED')).toBe(false);

    // the session still waits for a live agent: Sam takes it
    sam.send({ type: 'ACCEPT', session_id: id });
    expect(await sam.next((m) => m.type === 'SESSION_ACCEPTED' || m.type === 'ERROR')).toMatchObject({
      type: 'SESSION_ACCEPTED',
      session_id: id,
    });
    expect((await user.next('EVENT_TYPE_HANDOFF_ACCEPTED')).payload.agent_name).toBe('Sam');
    expect(user.events.filter((e) => e.type === 'EVENT_TYPE_HANDOFF_ACCEPTED')).toHaveLength(1);

    // and the deleted key cannot open a new one
    expect((await refusedHandshake(f.t.url, { api_key: doomed.key }, '/desk/ws')).status).toBe(401);
    user.close();
    sam.close();
  });

  it('a key reaching its expiresAt on the platform clock: its desk socket closes with 4401', async () => {
    const now = await platformNow(f.t);
    const expiring = await deskKey('Short-lived desk', new Date(now + 3600_000).toISOString());
    const desk = await DeskClient.open(f.t.url, expiring.key);
    await desk.next((m) => m.type === 'DESK_READY');

    await advanceClock(f.t, 3599);
    expect(await closesWithin(desk.closed, 300)).toBe(false);
    await advanceClock(f.t, 2);
    expect(await closedWithin(desk.closed, patient(2000), 'the expired key’s desk socket')).toEqual({
      code: 4401,
      reason: 'credential expired',
    });
    expect((await refusedHandshake(f.t.url, { api_key: expiring.key }, '/desk/ws')).body.error_code).toBe(
      'API_KEY_EXPIRED',
    );
  });

  it('a key past MESSAGING_MAX_DESK_SOCKETS_PER_KEY open sockets: the handshake answers 429, and a close frees a place', async () => {
    const capped = await deskKey('Busy desk');
    const first = await DeskClient.open(f.t.url, capped.key);
    const second = await DeskClient.open(f.t.url, capped.key);
    await first.next((m) => m.type === 'DESK_READY');
    await second.next((m) => m.type === 'DESK_READY');

    const refused = await refusedHandshake(f.t.url, { api_key: capped.key }, '/desk/ws');
    expect(refused.status).toBe(429);
    expect(refused.body).toMatchObject({
      success: false,
      error_code: 'CONNECTION_LIMIT_EXCEEDED',
      error_message: 'desk connection limit exceeded for this key (2 open)',
    });
    expect(refused.body.error_id).toBe(refused.headers['x-correlation-id']);
    // the cap is per key: another key still gets in
    const elsewhere = await DeskClient.open(f.t.url, (await deskKey('Other desk')).key);

    first.close();
    await first.closed;
    // the server sees the close a moment after the client: bounded retries until the place is free
    let third: DeskClient | null = null;
    const deadline = Date.now() + patient(2000);
    while (!third && Date.now() < deadline) {
      third = await DeskClient.open(f.t.url, capped.key).catch(() => null);
      if (!third) await new Promise((resolve) => setTimeout(resolve, 25));
    }
    expect(third).not.toBeNull();
    await third!.next((m) => m.type === 'DESK_READY');
    // a refused handshake took no place: the key is full again
    expect((await refusedHandshake(f.t.url, { api_key: capped.key }, '/desk/ws')).status).toBe(429);
    for (const desk of [second, third!, elsewhere]) desk.close();
  });

  it('a chat socket closes with 4401 when its access token expires; until then it answers', async () => {
    // a fresh token: the clock moved in the tests before
    const fresh = await token(f);
    const id = await session(f, fresh);
    const { client } = await connect(f, id, fresh);
    await advanceClock(f.t, 3599);
    client.send({ type: 'EVENT_TYPE_HEARTBEAT', payload: {} });
    await client.next('EVENT_TYPE_HEARTBEAT');
    expect(await closesWithin(client.closed, 300)).toBe(false);

    await advanceClock(f.t, 2);
    expect(await closedWithin(client.closed, patient(2000), 'the chat socket of an expired token')).toEqual({
      code: 4401,
      reason: 'credential expired',
    });
    // with a new token the client resumes where it was
    const renewed = await token(f);
    const { client: again } = await connect(f, id, renewed);
    again.close();
  });
});
