import { operatorKey } from '../helpers/keys-fixtures';
import { patient } from '../support/patience';
import { connect, DeskClient, session, startMessagingFixture, token } from './messaging-fixture';

describe('messaging sockets when the server stops', () => {
  it('chat sockets get 1001 (reconnect later), desk sockets are dropped, and the app closes promptly', async () => {
    const f = await startMessagingFixture();
    let closed = false;
    try {
      const bearer = await token(f);
      const { client: chat } = await connect(f, await session(f, bearer), bearer);
      const deskKey = (await operatorKey(f.t, f.account.accountId, { name: 'Dana (desk)', permissions: ['desk'] })).key;
      const desk = await DeskClient.open(f.t.url, deskKey);
      await desk.next((m) => m.type === 'DESK_READY');
      const started = Date.now();
      await f.close();
      closed = true;
      expect(Date.now() - started).toBeLessThan(patient(5000));
      expect(await chat.closed).toEqual({ code: 1001, reason: 'server shutting down' });
      expect((await desk.closed).code).toBe(1006);
    } finally {
      if (!closed) await f.close();
    }
  });
});
