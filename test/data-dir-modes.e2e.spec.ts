import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { request, startTestApp, type TestApp } from './helpers/test-app';
import { inDays } from './helpers/keys-fixtures';

interface Entry {
  path: string;
  mode: number;
  dir: boolean;
}

/** Every file and folder under `root` (the root included), with its permission bits. */
function walk(root: string): Entry[] {
  const out: Entry[] = [{ path: root, mode: fs.statSync(root).mode & 0o777, dir: true }];
  for (const entry of fs.readdirSync(root, { withFileTypes: true })) {
    const full = path.join(root, entry.name);
    if (entry.isDirectory()) out.push(...walk(full));
    else if (entry.isFile()) out.push({ path: full, mode: fs.statSync(full).mode & 0o777, dir: false });
  }
  return out;
}

function expectPrivate(root: string): Entry[] {
  const entries = walk(root);
  const loose = entries
    .filter((e) => e.mode !== (e.dir ? 0o700 : 0o600))
    .map((e) => `${path.relative(root, e.path) || '.'} ${e.mode.toString(8)}`);
  expect(loose).toEqual([]);
  return entries;
}

/** Issue 30, finding 4: the data directory is the user's alone (files 0600, folders 0700), -wal files included. */
describe('DATA_DIR file modes', () => {
  let dir: string;
  let t: TestApp | null = null;

  beforeAll(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'parley-modes-'));
  });
  afterAll(async () => {
    await t?.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  /** Writes through every store: an account, a key, an agent (event store, read models, platform database). */
  async function write(app: TestApp, token: string, name: string) {
    const op = { 'x-operator-token': token };
    const account = await request(`${app.url}/admin/v1/accounts`, { body: { name, region: 'us' }, headers: op });
    expect(account.status).toBe(201);
    const key = await request(`${app.url}/admin/v1/accounts/${account.body.accountId}/api-keys`, {
      body: { name: 'k', agents: 'all', permissions: ['agents'], expiresAt: inDays(30) },
      headers: { ...op, 'idempotency-key': `modes-${name}` },
    });
    expect(key.status).toBe(201);
    const agent = await request(`${app.url}/v1/accounts/${account.body.accountId}/agents`, {
      body: { name: 'bot', responseSettings: { greeting: 'hi' } },
      headers: { 'x-api-key': key.body.key },
    });
    expect([200, 201]).toContain(agent.status);
  }

  it('a new data directory: every file 0600 and every folder 0700 while the app runs, -wal files and the generated operator token included', async () => {
    const data = path.join(dir, 'fresh');
    // no OPERATOR_TOKEN: the first start generates DATA_DIR/operator-token
    t = await startTestApp({ OPERATOR_TOKEN: '' }, data);
    try {
      const token = fs.readFileSync(path.join(data, 'operator-token'), 'utf8').trim();
      await write(t, token, 'Fresh');
      const entries = expectPrivate(data);
      const names = entries.map((e) => path.basename(e.path));
      expect(names).toEqual(expect.arrayContaining(['platform.sqlite', 'operator-token', 'server-secret']));
      expect(names.some((n) => n.endsWith('-wal'))).toBe(true);
      expect(entries.filter((e) => e.dir).length).toBeGreaterThan(1);
    } finally {
      // the next test starts an app on this directory: this one must be closed whatever happened
      await t.close();
      t = null;
    }
  });

  it('a data directory left open to others by an older version is made private at start', async () => {
    const data = path.join(dir, 'fresh');
    // as an older version (umask 022) left it, plus a stray file in a folder of its own
    for (const e of walk(data)) fs.chmodSync(e.path, e.dir ? 0o755 : 0o644);
    fs.mkdirSync(path.join(data, 'read-models', 'stray'), { recursive: true, mode: 0o777 });
    fs.writeFileSync(path.join(data, 'read-models', 'stray', 'old.sqlite-wal'), 'x', { mode: 0o666 });
    fs.chmodSync(path.join(data, 'read-models', 'stray'), 0o777);
    fs.chmodSync(path.join(data, 'read-models', 'stray', 'old.sqlite-wal'), 0o666);
    t = await startTestApp({ OPERATOR_TOKEN: '' }, data);
    expectPrivate(data);
    const token = fs.readFileSync(path.join(data, 'operator-token'), 'utf8').trim();
    await write(t, token, 'Again');
    expectPrivate(data);
  });
});
