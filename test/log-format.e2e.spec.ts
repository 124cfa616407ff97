import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { appDatabaseEnv } from './helpers/app-database';
import { APP_PROCESS_TEST_TIMEOUT_MS, patient } from './support/patience';

const ROOT = path.resolve(__dirname, '..');
const LISTENING = 'parley is listening';

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
    server.on('error', reject);
  });
}

const isJsonObject = (line: string) => {
  try {
    const value: unknown = JSON.parse(line);
    return typeof value === 'object' && value !== null;
  } catch {
    return false;
  }
};

/** Starts the built server (dist/src/main.js) with `extra` in its environment; answers its stdout once it listens, then stops it. */
async function startupLog(extra: Record<string, string>): Promise<string[]> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'parley-log-format-'));
  const env = {
    ...process.env,
    PORT: String(await freePort()),
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    OPERATOR_TOKEN: '',
    NO_COLOR: '',
    ...(await appDatabaseEnv(dataDir, {})),
    ...extra,
  };
  const child = spawn(process.execPath, ['dist/src/main.js'], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  let out = '';
  let err = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (out += chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (err += chunk));
  try {
    const deadline = Date.now() + patient(30_000);
    while (!out.includes(LISTENING)) {
      if (child.exitCode !== null) throw new Error(`the server exited with ${child.exitCode}: ${err}`);
      if (Date.now() > deadline) throw new Error(`the server did not log that it listens in time:\n${out}${err}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    return out.split('\n').filter((line) => line.trim() !== '');
  } finally {
    if (child.exitCode === null) child.kill('SIGKILL');
    await exited;
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

describe('LOG_FORMAT', () => {
  jest.setTimeout(APP_PROCESS_TEST_TIMEOUT_MS);

  beforeAll(() => {
    const build = spawnSync(process.execPath, ['scripts/build.js'], { cwd: ROOT, encoding: 'utf8' });
    if (build.status !== 0) throw new Error(`build failed: ${build.stderr}`);
  });

  it('is JSON lines by default', async () => {
    const lines = await startupLog({});
    expect(lines.length).toBeGreaterThan(0);
    for (const line of lines) expect(isJsonObject(line)).toBe(true);
    expect(lines.map((line) => JSON.parse(line) as { msg?: string }).some((e) => e.msg === LISTENING)).toBe(true);
  });

  it('pretty: lines a person reads, time, level and message first, none of them JSON', async () => {
    const lines = await startupLog({ LOG_FORMAT: 'pretty' });
    expect(lines.length).toBeGreaterThan(0);
    for (const line of lines) expect(isJsonObject(line)).toBe(false);
    const listening = lines.find((line) => line.includes(LISTENING));
    expect(listening).toMatch(/^\d\d:\d\d:\d\d\.\d{3} INFO {2}parley is listening address=\{.*\} dataDir=/);
    // no terminal here, so no colour codes
    expect(lines.join('\n')).not.toContain('\x1b[');
  });

  it('refuses to start with an unknown format, naming the variable', () => {
    const result = spawnSync(process.execPath, ['dist/src/main.js'], {
      cwd: ROOT,
      env: { ...process.env, LOG_FORMAT: 'xml' },
      encoding: 'utf8',
      timeout: patient(30_000),
    });
    expect(result.status).toBe(1);
    expect(result.stderr).toContain('LOG_FORMAT');
    expect(result.stderr).toContain('json, pretty');
  });
});
