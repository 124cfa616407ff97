import path from 'node:path';
import { PostgresGenerationStorage, SqliteGenerationStorage } from './generation-storage';

describe('where a generation lives', () => {
  const storage = new SqliteGenerationStorage('/data/parley');

  it('on SQLite, is recorded as an absolute path (what every version reads) and opened under the data dir of the process', () => {
    const location = storage.locationOf('conversations', 2, 7);
    expect(location).toBe('/data/parley/read-models/conversations/v2.g7.sqlite');
    expect(storage.resolve(location)).toBe(location);
    // the same registry row, read by a copy of the data dir, or the data dir moved
    expect(new SqliteGenerationStorage('/mnt/restored').resolve(location)).toBe(
      '/mnt/restored/read-models/conversations/v2.g7.sqlite',
    );
  });

  it('takes the read-models part of any recorded path', () => {
    expect(storage.resolve('/var/lib/old-place/read-models/accounts/v1.g1.sqlite')).toBe(
      '/data/parley/read-models/accounts/v1.g1.sqlite',
    );
    // recorded relative to a working directory
    expect(storage.resolve(path.join('data', 'read-models', 'accounts', 'v1.g1.sqlite'))).toBe(
      '/data/parley/read-models/accounts/v1.g1.sqlite',
    );
    // a data dir that is itself under a folder named read-models: the last one is the generations'
    expect(storage.resolve('/home/read-models/parley/read-models/accounts/v1.g1.sqlite')).toBe(
      '/data/parley/read-models/accounts/v1.g1.sqlite',
    );
    // not a generation file of any data dir: left where it is
    expect(storage.resolve('/elsewhere/accounts.sqlite')).toBe('/elsewhere/accounts.sqlite');
  });

  it('on SQLite, resolves a relative data dir', () => {
    const relative = new SqliteGenerationStorage('data');
    expect(relative.locationOf('accounts', 1, 1)).toBe(path.resolve('data', 'read-models', 'accounts', 'v1.g1.sqlite'));
  });

  it('on PostgreSQL, is a schema of the read-model database, the same for every process', () => {
    const pg = new PostgresGenerationStorage('postgres://127.0.0.1/parley');
    const location = pg.locationOf('conversations', 1, 3);
    expect(location).toMatch(/^postgres:/);
    expect(pg.resolve(location)).toBe(location);
  });
});
