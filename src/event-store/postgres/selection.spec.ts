import os from 'node:os';
import { loadConfig } from '../../platform/config/config';
import { openEventStore } from '../open-event-store';
import { Upcasters } from '../upcasting';

describe('choosing the PostgreSQL adapter (EVENT_STORE=postgres)', () => {
  // Nothing listens on port 1: the connection is refused, which shows this adapter (not SQLite)
  // was opened, and that opening reaches the database at start instead of at the first request.
  it('opens the adapter, failing at start when the database is unreachable', async () => {
    const config = loadConfig({
      EVENT_STORE: 'postgres',
      EVENT_STORE_URL: 'postgres://parley:secret@127.0.0.1:1/parley',
      DATA_DIR: os.tmpdir(),
      LOG_LEVEL: 'silent',
    });
    await expect(openEventStore(config, new Upcasters())).rejects.toMatchObject({ code: 'ECONNREFUSED' });
  });
});
