import { spawnSync, type SpawnSyncReturns } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { Client } from 'pg';

/**
 * A throwaway PostgreSQL server for tests: initdb into a fresh temp dir, started on a free
 * 127.0.0.1 port (its unix socket inside that dir, so it never meets a system server), a password
 * for the URL, fsync off (the data dies with the test). `stop()` stops it and removes the dir.
 *
 * initdb and postgres refuse to run as root, and tests (and CI) run as root here: as root the
 * server runs as the `postgres` user when it exists, else `nobody`, through `runuser`, in a dir
 * chowned to it.
 */
export interface PostgresServer {
  /** postgres://parley:<password>@127.0.0.1:<port>/<database> of the database created at start */
  url: string;
  port: number;
  dir: string;
  /** Another empty database on the same server; its URL. */
  createDatabase(name: string): Promise<string>;
  /** Shuts the server down as an operator's restart does (fast: sessions end, the WAL is flushed); its data stays. */
  halt(): void;
  /** Starts the halted server again, on the same port and data. */
  resume(): void;
  stop(): Promise<void>;
}

export interface PostgresBinaries {
  bindir: string;
  initdb: string;
  pgCtl: string;
}

const REQUIRED = ['initdb', 'pg_ctl', 'postgres'] as const;
const START_TIMEOUT_S = 30;
const COMMAND_TIMEOUT_MS = 60_000;
const USER = 'parley';

/** Where initdb, pg_ctl and postgres are: PATH, Debian's /usr/lib/postgresql/<v>/bin (15 first), `pg_config --bindir`; null if nowhere. */
export function findPostgresBinaries(env: NodeJS.ProcessEnv = process.env): PostgresBinaries | null {
  const candidates: string[] = [];
  for (const dir of (env.PATH ?? '').split(path.delimiter).filter(Boolean)) {
    // pg_ctl finds postgres beside its real path: follow a symlinked initdb (/usr/local/bin) to it
    const initdb = path.join(dir, 'initdb');
    if (isExecutable(initdb)) candidates.push(path.dirname(fs.realpathSync(initdb)));
  }
  const debian = '/usr/lib/postgresql';
  if (fs.existsSync(debian)) {
    const versions = fs
      .readdirSync(debian)
      .filter((v) => /^\d+$/.test(v))
      .sort((a, b) => (a === '15' ? -1 : b === '15' ? 1 : Number(b) - Number(a)));
    candidates.push(...versions.map((v) => path.join(debian, v, 'bin')));
  }
  const pgConfig = spawnSync('pg_config', ['--bindir'], { encoding: 'utf8', env });
  if (pgConfig.status === 0) candidates.push(pgConfig.stdout.trim());
  const bindir = candidates.find((dir) => REQUIRED.every((name) => isExecutable(path.join(dir, name))));
  return bindir ? { bindir, initdb: path.join(bindir, 'initdb'), pgCtl: path.join(bindir, 'pg_ctl') } : null;
}

/**
 * For a test file that needs PostgreSQL: the binaries, or null after a loud warning. Under CI=true
 * a missing server fails instead: CI must test both databases, a missing binary there is a broken
 * machine, not a reason to test less.
 */
export function postgresBinariesOrSkip(
  what: string,
  find: () => PostgresBinaries | null = findPostgresBinaries,
): PostgresBinaries | null {
  const binaries = find();
  if (binaries) return binaries;
  const message = [
    '',
    '!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!',
    `!! SKIPPED on PostgreSQL: ${what}`,
    '!! initdb, pg_ctl and postgres were found neither on PATH, nor in /usr/lib/postgresql/*/bin,',
    '!! nor in `pg_config --bindir` (Debian: apt-get install -y postgresql-15).',
    '!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!',
    '',
  ].join('\n');
  if (isCi()) throw new Error(`PostgreSQL binaries are missing, and CI=true: ${message}`);
  console.warn(message);
  return null;
}

/**
 * `maxConnections`: one app holds a few dozen connections (a pool per read model, its leases); a
 * server that a whole test run shares (scripts/with-postgres.js) needs more than a file's.
 * `durable`: PostgreSQL's own defaults (fsync, synchronous_commit, full_page_writes on), for a
 * benchmark whose commits must cost what they cost in production; tests leave it off.
 */
export async function startPostgresServer(
  binaries: PostgresBinaries | null = findPostgresBinaries(),
  database = 'parley_test',
  { maxConnections = 100, durable = false } = {},
): Promise<PostgresServer> {
  if (!binaries) throw new Error('PostgreSQL binaries not found (initdb, pg_ctl, postgres): see findPostgresBinaries');
  const runAs = process.getuid?.() === 0 ? unprivilegedUser() : null;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'parley-pg-'));
  const data = path.join(dir, 'data');
  const password = randomBytes(12).toString('hex');
  let started = false;
  const stopNow = () => {
    if (started) run(runAs, binaries.pgCtl, ['stop', '-D', data, '-m', 'immediate', '-w', '-t', '10'], dir, false);
    started = false;
  };
  // A test process that exits without stop() (a failed beforeAll, Ctrl-C) leaves no server behind.
  const onExit = () => {
    stopNow();
    fs.rmSync(dir, { recursive: true, force: true });
  };
  process.once('exit', onExit);
  try {
    fs.writeFileSync(path.join(dir, 'pwfile'), `${password}\n`, { mode: 0o600 });
    if (runAs) chownTree(dir, runAs);
    run(
      runAs,
      binaries.initdb,
      [
        '-D',
        data,
        '-U',
        USER,
        '--pwfile',
        path.join(dir, 'pwfile'),
        '--auth-local=trust',
        '--auth-host=scram-sha-256',
        '-E',
        'UTF8',
        '--no-locale',
        '--no-sync',
      ],
      dir,
    );
    let port = 0;
    let options = '';
    const pgStart = () =>
      run(
        runAs,
        binaries.pgCtl,
        ['start', '-D', data, '-l', path.join(dir, 'server.log'), '-o', options, '-w', '-t', String(START_TIMEOUT_S)],
        dir,
        false,
      );
    for (let attempt = 1; ; attempt++) {
      port = await freeTcpPort();
      options = [
        `-p ${port}`,
        '-c listen_addresses=127.0.0.1',
        `-k ${dir}`,
        ...(durable ? [] : ['-c fsync=off', '-c synchronous_commit=off', '-c full_page_writes=off']),
        `-c max_connections=${maxConnections}`,
      ].join(' ');
      const result = pgStart();
      if (result.status === 0) break;
      const log = readIfExists(path.join(dir, 'server.log'));
      // another process took the port between our probe and the server's bind: try another
      if (attempt < 3 && /could not bind|Address already in use/i.test(log)) continue;
      throw new Error(`pg_ctl start failed (exit ${result.status}): ${result.stderr}${result.stdout}\n${log}`);
    }
    started = true;
    const admin = `postgres://${USER}:${password}@127.0.0.1:${port}`;
    const createDatabase = async (name: string) => {
      if (!/^[a-z_][a-z0-9_]{0,62}$/.test(name)) throw new Error(`not a plain database name: ${name}`);
      const client = new Client({ connectionString: `${admin}/postgres`, connectionTimeoutMillis: 10_000 });
      await client.connect();
      try {
        await client.query(`CREATE DATABASE ${name}`);
      } finally {
        await client.end();
      }
      return `${admin}/${name}`;
    };
    const url = await createDatabase(database);
    return {
      url,
      port,
      dir,
      createDatabase,
      halt: () => {
        run(runAs, binaries.pgCtl, ['stop', '-D', data, '-m', 'fast', '-w', '-t', String(START_TIMEOUT_S)], dir);
        started = false;
      },
      resume: () => {
        const result = pgStart();
        if (result.status !== 0)
          throw new Error(`pg_ctl start failed (exit ${result.status}): ${result.stderr}${result.stdout}`);
        started = true;
      },
      stop: async () => {
        stopNow();
        process.removeListener('exit', onExit);
        fs.rmSync(dir, { recursive: true, force: true });
      },
    };
  } catch (error) {
    onExit();
    process.removeListener('exit', onExit);
    throw error;
  }
}

function isCi(): boolean {
  return process.env.CI === 'true' || process.env.CI === '1';
}

function isExecutable(file: string): boolean {
  try {
    fs.accessSync(file, fs.constants.X_OK);
    return fs.statSync(file).isFile();
  } catch {
    return false;
  }
}

function unprivilegedUser(): string {
  for (const user of ['postgres', 'nobody']) if (spawnSync('id', ['-u', user]).status === 0) return user;
  throw new Error('running as root, and neither a `postgres` nor a `nobody` user exists to run PostgreSQL as');
}

function chownTree(dir: string, user: string): void {
  const result = spawnSync('chown', ['-R', user, dir], { encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`chown -R ${user} ${dir} failed: ${result.stderr}`);
}

/** One of the server's commands, as `runAs` when root; bounded. Throws on failure unless `check` is false. */
function run(
  runAs: string | null,
  command: string,
  args: string[],
  cwd: string,
  check = true,
): SpawnSyncReturns<string> {
  const [file, argv] = runAs ? ['runuser', ['-u', runAs, '--', command, ...args]] : [command, args];
  const result = spawnSync(file, argv, {
    cwd,
    encoding: 'utf8',
    timeout: COMMAND_TIMEOUT_MS,
    env: { ...process.env, LC_ALL: 'C' },
  });
  if (check && result.status !== 0) {
    throw new Error(
      `${path.basename(command)} failed (exit ${result.status}${result.error ? `, ${result.error.message}` : ''}): ${result.stderr}${result.stdout}`,
    );
  }
  return result;
}

function readIfExists(file: string): string {
  try {
    return fs.readFileSync(file, 'utf8');
  } catch {
    return '';
  }
}

async function freeTcpPort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve, reject) => server.once('error', reject).listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/**
 * A describe block whose tests share one throwaway server, started before them and stopped after;
 * skipped loudly without the binaries (failed under CI=true, see postgresBinariesOrSkip).
 */
export function describeOnPostgres(title: string, body: (server: () => PostgresServer) => void): void {
  const binaries = postgresBinariesOrSkip(title);
  (binaries ? describe : describe.skip)(title, () => {
    let server: PostgresServer | null = null;
    beforeAll(async () => {
      server = await startPostgresServer(binaries);
    }, 180_000);
    afterAll(async () => {
      await server?.stop();
    });
    body(() => {
      if (!server) throw new Error('the PostgreSQL server is not started yet (use it inside tests and hooks)');
      return server;
    });
  });
}
