import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { appDatabaseEnv } from './app-database';
import type { TestApp } from './test-app';
import { patient, SLOW_MACHINE_ENV } from '../support/patience';

const CHILD = path.join(__dirname, 'app-child.js');
/** A child compiles the sources as it loads them: 15-20 s on a slow CI machine, two at once slower. */
const START_TIMEOUT_MS = patient(30_000);

/**
 * Every child this test file started and that still runs. A test that times out while a start is
 * pending never gets the process to stop; the file's end stops it (and app-child.js ends itself
 * when this worker does), or it would serve on, loading the machine, through the files after it.
 */
const running = new Set<ChildProcess>();
if (typeof afterAll === 'function') {
  afterAll(async () => {
    await Promise.all([...running].map((proc) => new Promise((resolve) => proc.once('exit', resolve).kill('SIGKILL'))));
  });
}

/**
 * The whole app in a child process (app-child.js: the TypeScript sources, no build), for tests
 * that kill it with SIGKILL or run several processes on shared stores. `env` is the process's
 * configuration; it must hold OPERATOR_TOKEN. On a READ_MODEL_DB=postgres run without a
 * READ_MODEL_DB of its own, the app's database is the one of its DATA_DIR (app-database.ts).
 */
export class AppProcess {
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;

  private constructor(
    private readonly proc: ChildProcess,
    readonly t: TestApp,
    readonly stderr: () => string,
  ) {
    this.exited = new Promise((resolve) => proc.on('exit', (code, signal) => resolve({ code, signal })));
  }

  static async start(env: Record<string, string> & { DATA_DIR: string; OPERATOR_TOKEN: string }): Promise<AppProcess> {
    const database = await appDatabaseEnv(env.DATA_DIR, env);
    // stdin is a pipe the child watches: it ends when this process does, however it ends
    const proc = spawn(process.execPath, [CHILD, JSON.stringify({ ...SLOW_MACHINE_ENV, ...database, ...env })], {
      cwd: path.resolve(__dirname, '../..'),
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    running.add(proc);
    proc.on('exit', () => running.delete(proc));
    return new Promise((resolve, reject) => {
      let child: AppProcess | null = null;
      let stderr = '';
      let out = '';
      proc.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
      const timer = setTimeout(() => {
        proc.kill('SIGKILL');
        reject(new Error(`the app did not start within ${START_TIMEOUT_MS / 1000} s\n${stderr}`));
      }, START_TIMEOUT_MS);
      proc.stdout!.setEncoding('utf8').on('data', (chunk: string) => {
        out += chunk;
        const line = out.split('\n').find((l) => l.includes('"listening"'));
        if (!line || child) return;
        clearTimeout(timer);
        const { url } = JSON.parse(line) as { url: string };
        child = new AppProcess(
          proc,
          {
            app: undefined as never,
            url,
            dataDir: env.DATA_DIR,
            operatorToken: env.OPERATOR_TOKEN,
            close: async () => undefined,
          },
          () => stderr,
        );
        resolve(child);
      });
      proc.on('exit', (code, signal) => {
        clearTimeout(timer);
        if (!child) reject(new Error(`the app exited before listening (${code ?? signal})\n${stderr}`));
      });
    });
  }

  /** SIGKILL: no shutdown hook runs, as when a machine dies. */
  async kill(): Promise<{ code: number | null; signal: NodeJS.Signals | null }> {
    this.proc.kill('SIGKILL');
    return this.exited;
  }

  /** Ends it if it still runs (afterEach). */
  stop(): Promise<unknown> {
    if (this.proc.exitCode === null && this.proc.signalCode === null) this.proc.kill('SIGKILL');
    return this.exited;
  }
}
