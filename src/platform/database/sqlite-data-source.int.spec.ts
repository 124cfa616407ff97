import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { configure } from '../../event-store/sqlite/schema';
import { EVENT_LOG_CACHE_KIB, READ_MODEL_READER_CACHE_KIB, SOLE_WRITER_CACHE_KIB } from './page-cache';
import { rawConnection } from './raw-connection';
import { openSqliteDataSource } from './sqlite-data-source';

/** page-cache.ts: a connection whose cache others' commits clear keeps a small one. */
describe('SQLite page cache sizes', () => {
  let dir: string;
  beforeEach(() => (dir = fs.mkdtempSync(path.join(os.tmpdir(), 'parley-cache-'))));
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  const cacheSize = (db: Database.Database) => db.pragma('cache_size', { simple: true });

  it('a read model: large for its writer, small for the read-only connection beside it', async () => {
    const file = path.join(dir, 'model.sqlite');
    const writer = await openSqliteDataSource({ file, entities: [] });
    const reader = await openSqliteDataSource({ file, entities: [], readonly: true });
    try {
      expect(cacheSize(rawConnection(writer))).toBe(-SOLE_WRITER_CACHE_KIB);
      expect(cacheSize(rawConnection(reader))).toBe(-READ_MODEL_READER_CACHE_KIB);
      expect(READ_MODEL_READER_CACHE_KIB).toBeLessThan(SOLE_WRITER_CACHE_KIB);
    } finally {
      await reader.destroy();
      await writer.destroy();
    }
  });

  it('the event store: small on every connection (the writer thread and inline appends share the file)', () => {
    const db = new Database(path.join(dir, 'events.sqlite'));
    try {
      configure(db, 'normal');
      expect(cacheSize(db)).toBe(-EVENT_LOG_CACHE_KIB);
      expect(EVENT_LOG_CACHE_KIB).toBeLessThanOrEqual(2_048);
    } finally {
      db.close();
    }
  });
});
