import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { appDatabaseEnv } from './helpers/app-database';
import { patient } from './support/patience';

const ROOT = path.resolve(__dirname, '..');

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

async function waitForHealth(url: string, child: ChildProcess, ms: number): Promise<void> {
  const deadline = Date.now() + patient(ms);
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}`);
    try {
      const r = await fetch(`${url}/healthz`);
      if (r.status === 200) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error('server did not become healthy in time');
}

function exited(child: ChildProcess): Promise<string> {
  return new Promise((resolve) => child.once('exit', (code, signal) => resolve(signal ?? String(code))));
}

/** Starts the server exactly as the README says (`npm start`), with nothing else running. */
describe('npm start', () => {
  jest.setTimeout(90_000);

  it('serves on PORT with everything embedded under DATA_DIR and a generated operator token', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'parley-start-'));
    const port = await freePort();
    // on a READ_MODEL_DB=postgres run, as the README's PostgreSQL section starts it (the event log stays in DATA_DIR)
    const env = {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      OPERATOR_TOKEN: '',
      ...(await appDatabaseEnv(dataDir, {})),
    };
    const child = spawn('npm', ['start', '--silent'], {
      cwd: ROOT,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    });
    let log = '';
    child.stdout!.on('data', (d) => (log += d));
    child.stderr!.on('data', (d) => (log += d));
    try {
      await waitForHealth(`http://127.0.0.1:${port}`, child, 60_000);
      const tokenFile = path.join(dataDir, 'operator-token');
      expect(fs.statSync(tokenFile).mode & 0o777).toBe(0o600);
      const token = fs.readFileSync(tokenFile, 'utf8').trim();
      expect(token.length).toBeGreaterThanOrEqual(32);
      expect(log).toContain(tokenFile);
      expect(log).not.toContain(token);
      expect(fs.existsSync(path.join(dataDir, 'events.sqlite'))).toBe(true);
      const ready = await fetch(`http://127.0.0.1:${port}/readyz`);
      expect(ready.status).toBe(200);
      // every log line is JSON
      for (const line of log.split('\n').filter((l) => l.startsWith('{'))) expect(() => JSON.parse(line)).not.toThrow();
    } finally {
      if (child.exitCode === null) {
        process.kill(-child.pid!, 'SIGTERM');
        // npm relays SIGTERM to the server, which shuts down cleanly; npm itself reports the signal.
        expect(['0', 'SIGTERM']).toContain(await exited(child));
      }
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it('stops at start with a message naming a bad variable', () => {
    const result = spawnSync(process.execPath, ['dist/src/main.js'], {
      cwd: ROOT,
      env: { ...process.env, PORT: 'eighty' },
      encoding: 'utf8',
    });
    expect(result.status).toBe(1);
    expect(result.stderr).toContain('PORT');
  });
});
