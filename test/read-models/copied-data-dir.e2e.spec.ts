import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { request, startTestApp, type TestApp } from '../helpers/test-app';
import { createAccount, op } from '../helpers/keys-fixtures';
import { eventually } from '../helpers/conversations-fixture';
import { accountsProjection } from '../../projections/accounts/accounts.projection';

/** The accounts read model's first generation file, at whatever version the model is now. */
const ACCOUNTS_FILE = `v${accountsProjection.version}.g1.sqlite`;

/**
 * A data dir that is copied, moved or restored from a backup is a whole deployment: its read
 * models are the files under it. The registry records absolute paths, and a copy used to open
 * them as they were: it applied its events into the original's read models (whose checkpoints
 * then ran past the original's own log, which stopped applying there) and served their rows.
 */
describe('a data dir copied elsewhere (SQLite read models)', () => {
  // files under the data dir: what a copy takes with it (a PostgreSQL run's databases are not copied)
  const sqliteOnly = { READ_MODEL_DB: 'sqlite' };
  /** where a moved data dir used to be: a path of this run's own that never exists */
  let before = '';
  const dirs: string[] = [];
  const apps: TestApp[] = [];
  const newDir = (label: string) => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), `parley-${label}-`));
    dirs.push(dir);
    return dir;
  };
  const start = async (dir: string) => {
    const t = await startTestApp(sqliteOnly, dir);
    apps.push(t);
    return t;
  };
  const stop = async (t: TestApp) => {
    await t.close();
    apps.splice(apps.indexOf(t), 1);
  };
  const accountNames = async (t: TestApp) =>
    ((await request(`${t.url}/admin/v1/accounts`, { headers: op(t) })).body.accounts as Array<{ name: string }>)
      .map((a) => a.name)
      .sort();
  const registry = (dir: string) => {
    const db = new Database(path.join(dir, 'platform.sqlite'));
    return {
      rows: () =>
        db.prepare('SELECT name, file FROM read_model_generation ORDER BY name').all() as Array<{
          name: string;
          file: string;
        }>,
      set: (name: string, file: string) =>
        db.prepare('UPDATE read_model_generation SET file = ? WHERE name = ?').run(file, name),
      close: () => db.close(),
    };
  };

  afterEach(async () => {
    for (const t of apps.splice(0)) await t.close();
    for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
    if (before) fs.rmSync(path.dirname(before), { recursive: true, force: true });
  });

  const namesIn = (file: string) => {
    const db = new Database(file, { readonly: true });
    try {
      return (db.prepare('SELECT name FROM account ORDER BY name').all() as Array<{ name: string }>).map((r) => r.name);
    } finally {
      db.close();
    }
  };

  it('applies and serves from its own files, and leaves the original as it was', async () => {
    const original = newDir('original');
    const first = await start(original);
    await createAccount(first, 'Before the copy');
    await eventually(async () => expect(await accountNames(first)).toEqual(['Before the copy']));
    await stop(first);

    const copy = newDir('copy');
    fs.cpSync(original, copy, { recursive: true });
    const copied = await start(copy);
    await createAccount(copied, 'Only in the copy');
    await eventually(async () => expect(await accountNames(copied)).toEqual(['Before the copy', 'Only in the copy']));
    await stop(copied);

    // the original's read model never saw the copy's account, and it still serves its own
    expect(namesIn(path.join(original, 'read-models', 'accounts', ACCOUNTS_FILE))).toEqual(['Before the copy']);
    expect(namesIn(path.join(copy, 'read-models', 'accounts', ACCOUNTS_FILE))).toEqual([
      'Before the copy',
      'Only in the copy',
    ]);
    const again = await start(original);
    await createAccount(again, 'After the copy');
    await eventually(async () => expect(await accountNames(again)).toEqual(['After the copy', 'Before the copy']));
  });

  it('reads a registry that names its files at the place the data dir had before it moved as files under its own data dir', async () => {
    const dir = newDir('moved');
    before = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'parley-before-')), 'the-old-place');
    const first = await start(dir);
    await createAccount(first, 'Kept');
    await eventually(async () => expect(await accountNames(first)).toEqual(['Kept']));
    await stop(first);
    const old = registry(dir);
    try {
      // the absolute paths the registry records, of the place the data dir had before it was moved
      for (const row of old.rows()) old.set(row.name, path.join(before, path.relative(dir, row.file)));
    } finally {
      old.close();
    }
    const moved = await start(dir);
    expect(await accountNames(moved)).toEqual(['Kept']);
    await createAccount(moved, 'Added after the move');
    await eventually(async () => expect(await accountNames(moved)).toEqual(['Added after the move', 'Kept']));
    await stop(moved);
    // applied into the files under the data dir: nothing was built at the old place, no second generation here
    expect(namesIn(path.join(dir, 'read-models', 'accounts', ACCOUNTS_FILE))).toEqual(['Added after the move', 'Kept']);
    expect(fs.existsSync(before)).toBe(false);
    expect(fs.readdirSync(path.join(dir, 'read-models', 'accounts')).filter((f) => f.endsWith('.sqlite'))).toEqual([
      ACCOUNTS_FILE,
    ]);
  });
});
