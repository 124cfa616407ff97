import { spawn, type ChildProcess } from 'node:child_process';
import { withDeadline } from './measure';

/**
 * A child process that reports in JSON lines on stdout and stops when its stdin ends (the edge
 * flood's server, flood and connection holders). Every wait on it is bounded, and `stop` ends it
 * even if it does not listen: the bench never leaves one running.
 */
export interface LineChild<T> {
  readonly pid: number;
  /** every line so far, parsed */
  readonly lines: T[];
  /** the first line (among those so far and to come) that `match` accepts */
  waitFor(match: (line: T) => boolean, ms: number, what: string): Promise<T>;
  /** writes one line to its stdin */
  send(line: string): void;
  /** ends its stdin, waits up to `ms` for it to exit, then kills it; resolves with its last line */
  stop(ms: number): Promise<T | undefined>;
}

/** `nofile`: the file limit the child runs under (`ulimit -n`, no higher than the hard limit). */
export function spawnLineChild<T>(args: string[], options: { nofile?: number } = {}): LineChild<T> {
  const child: ChildProcess =
    options.nofile === undefined
      ? spawn(process.execPath, args, { stdio: ['pipe', 'pipe', 'inherit'] })
      : spawn('sh', ['-c', `ulimit -n ${options.nofile} && exec "$0" "$@"`, process.execPath, ...args], {
          stdio: ['pipe', 'pipe', 'inherit'],
        });
  const lines: T[] = [];
  const waiters = new Set<{ match: (line: T) => boolean; resolve: (line: T) => void }>();
  let exited: string | null = null;
  const exitWaiters = new Set<() => void>();
  let buffered = '';
  child.stdout!.on('data', (chunk: Buffer) => {
    buffered += chunk.toString();
    let at: number;
    while ((at = buffered.indexOf('\n')) !== -1) {
      const text = buffered.slice(0, at);
      buffered = buffered.slice(at + 1);
      if (!text.trim()) continue;
      const line = JSON.parse(text) as T;
      lines.push(line);
      for (const waiter of waiters) if (waiter.match(line)) waiter.resolve(line);
    }
  });
  child.stdin!.on('error', () => undefined);
  child.on('exit', (code, signal) => {
    exited = `exited ${code ?? signal}`;
    for (const resolve of exitWaiters) resolve();
  });
  const exit = () => new Promise<void>((resolve) => (exited ? resolve() : exitWaiters.add(resolve)));
  return {
    pid: child.pid!,
    lines,
    waitFor(match, ms, what) {
      const seen = lines.find(match);
      if (seen) return Promise.resolve(seen);
      let waiter!: { match: (line: T) => boolean; resolve: (line: T) => void };
      const found = new Promise<T>((resolve, reject) => {
        waiter = { match, resolve };
        waiters.add(waiter);
        void exit().then(() => reject(new Error(`${what}: the child ${exited} first`)));
      });
      return withDeadline(found, ms, what).finally(() => waiters.delete(waiter));
    },
    send(line) {
      child.stdin!.write(`${line}\n`);
    },
    async stop(ms) {
      child.stdin!.end();
      try {
        await withDeadline(exit(), ms, 'a child stopping');
      } catch {
        child.kill('SIGKILL');
        await exit();
      }
      return lines[lines.length - 1];
    },
  };
}
