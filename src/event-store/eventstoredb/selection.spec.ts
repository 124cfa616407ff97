import os from 'node:os';
import { UnavailableError } from '@kurrent/kurrentdb-client';
import { ConfigError, loadConfig } from '../../platform/config/config';
import { openEventStore } from '../open-event-store';
import { Upcasters } from '../upcasting';

describe('choosing the EventStoreDB adapter (EVENT_STORE=eventstoredb)', () => {
  it('stays sqlite by default, with no connection string', () => {
    expect(loadConfig({})).toMatchObject({ eventStore: 'sqlite', eventStoreConnectionString: null });
    expect(
      loadConfig({ EVENTSTORE_CONNECTION_STRING: 'kurrentdb://ignored:2113' }).eventStoreConnectionString,
    ).toBeNull();
  });

  it('reads the connection string when eventstoredb is chosen', () => {
    const config = loadConfig({
      EVENT_STORE: 'eventstoredb',
      EVENTSTORE_CONNECTION_STRING: ' kurrentdb+discover://admin:changeit@db.internal:2113?tls=true ',
    });
    expect(config).toMatchObject({
      eventStore: 'eventstoredb',
      eventStoreConnectionString: 'kurrentdb+discover://admin:changeit@db.internal:2113?tls=true',
    });
    expect(
      loadConfig({ EVENT_STORE: 'EventStoreDB', EVENTSTORE_CONNECTION_STRING: 'esdb://localhost:2113?tls=false' })
        .eventStore,
    ).toBe('eventstoredb');
  });

  it.each([
    [{ EVENT_STORE: 'eventstoredb' }, 'EVENTSTORE_CONNECTION_STRING'],
    [{ EVENT_STORE: 'eventstoredb', EVENTSTORE_CONNECTION_STRING: '  ' }, 'EVENTSTORE_CONNECTION_STRING'],
    [
      { EVENT_STORE: 'eventstoredb', EVENTSTORE_CONNECTION_STRING: 'http://admin:s3cret@localhost:2113' },
      'EVENTSTORE_CONNECTION_STRING',
    ],
    [{ EVENT_STORE: 'eventstore', EVENTSTORE_CONNECTION_STRING: 'kurrentdb://localhost:2113' }, 'EVENT_STORE'],
  ])('rejects %p naming %s', (env, variable) => {
    expect(() => loadConfig(env)).toThrow(ConfigError);
    expect(() => loadConfig(env)).toThrow(new RegExp(`^invalid configuration: ${variable} `));
  });

  it('never echoes the connection string (it may hold a password)', () => {
    expect(() =>
      loadConfig({ EVENT_STORE: 'eventstoredb', EVENTSTORE_CONNECTION_STRING: 'http://admin:s3cret@localhost:2113' }),
    ).toThrow(/^(?!.*s3cret)/);
  });

  // Nothing listens on port 1: the real client fails to connect, which shows the adapter (not
  // SQLite) was opened, and that opening checks the server at start instead of at the first request.
  it('opens the adapter on the real client, failing at start when the server is unreachable', async () => {
    const config = loadConfig({
      EVENT_STORE: 'eventstoredb',
      EVENTSTORE_CONNECTION_STRING: 'kurrentdb://127.0.0.1:1?tls=false',
      DATA_DIR: os.tmpdir(),
      LOG_LEVEL: 'silent',
    });
    await expect(openEventStore(config, new Upcasters())).rejects.toBeInstanceOf(UnavailableError);
  });
});
