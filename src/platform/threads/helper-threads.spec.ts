import fs from 'node:fs';
import os from 'node:os';
import { Worker } from 'node:worker_threads';
import pino from 'pino';
import { loadConfig } from '../config/config';
import { HelperThreadPriority } from './helper-thread-priority';
import { keepThreadPriority, yieldHelperThreads } from './helper-threads';
import { currentThreadId } from './thread-priority';

/** A thread that tells its kernel task id and then waits until it is terminated. */
async function startThread(): Promise<{ id: number; worker: Worker }> {
  const worker = new Worker(
    `require('node:worker_threads').parentPort.postMessage(Number(require('node:fs').readlinkSync('/proc/thread-self').split('/').pop())); setInterval(() => {}, 1000);`,
    { eval: true },
  );
  const id = await new Promise<number>((resolve, reject) => worker.once('message', resolve).once('error', reject));
  return { id, worker };
}

// setpriority on a thread id is Linux's; elsewhere there is nothing to lower (and the functions say so by doing nothing)
const linux = fs.existsSync('/proc/thread-self');
const onLinux = linux ? it : it.skip;
if (!linux)
  process.stderr.write('helper-threads.spec: no /proc/thread-self here, the thread priority tests are skipped\n');

describe('helper threads yield to the event loop', () => {
  const started: Worker[] = [];
  const thread = async () => {
    const t = await startThread();
    started.push(t.worker);
    return t.id;
  };
  afterEach(async () => {
    await Promise.all(started.splice(0).map((w) => w.terminate()));
  });

  onLinux('the calling thread knows its own task id: the main thread is the process', () => {
    expect(currentThreadId()).toBe(process.pid);
  });

  onLinux(
    'lowers every other thread to the main thread + niceness, except the kept ones and the main thread',
    async () => {
      const main = os.getPriority(process.pid);
      const helper = await thread();
      const writer = await thread();
      const release = keepThreadPriority(writer);
      try {
        expect(os.getPriority(helper)).toBe(main);
        expect(yieldHelperThreads(3)).toBeGreaterThanOrEqual(1);
        expect(os.getPriority(helper)).toBe(Math.min(19, main + 3));
        expect(os.getPriority(writer)).toBe(main);
        expect(os.getPriority(process.pid)).toBe(main);
        // a thread already below the target is left where it is
        yieldHelperThreads(2);
        expect(os.getPriority(helper)).toBe(Math.min(19, main + 3));
      } finally {
        release();
      }
      // released (its thread ended, say), it is a helper like the others
      yieldHelperThreads(3);
      expect(os.getPriority(writer)).toBe(Math.min(19, main + 3));
    },
  );

  onLinux('niceness 0 changes nothing', async () => {
    const main = os.getPriority(process.pid);
    const helper = await thread();
    expect(yieldHelperThreads(0)).toBe(0);
    expect(os.getPriority(helper)).toBe(main);
  });

  onLinux('the app applies HELPER_THREAD_NICENESS once started, and not at all with 0', async () => {
    const main = os.getPriority(process.pid);
    const off = new HelperThreadPriority(loadConfig({ HELPER_THREAD_NICENESS: '0' }), pino({ level: 'silent' }));
    const untouched = await thread();
    off.onApplicationBootstrap();
    off.onApplicationShutdown();
    expect(os.getPriority(untouched)).toBe(main);

    const on = new HelperThreadPriority(loadConfig({ HELPER_THREAD_NICENESS: '4' }), pino({ level: 'silent' }));
    const helper = await thread();
    on.onApplicationBootstrap();
    on.onApplicationShutdown();
    expect(os.getPriority(helper)).toBe(Math.min(19, main + 4));
  });
});
