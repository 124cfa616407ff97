import { Session } from 'node:inspector/promises';
import type { CpuProfile } from './stages';

export interface ThreadProfile {
  /** `main`, or the worker's entry file without its directory and `-thread.js` */
  thread: string;
  /** the worker's entry url ('' for the main thread) */
  entry: string;
  /** the thread's id in /proc (Linux), to read its own CPU time by; null elsewhere */
  tid: number | null;
  profile: CpuProfile;
}

interface WorkerTarget {
  sessionId: string;
  url: string;
  tid: number | null;
}

/** A worker inspector's answer (or event: no id) to a message sent through NodeWorker. */
interface WorkerReply {
  id?: number;
  result?: unknown;
  error?: { message: string };
}

/** How long a worker may take to answer its profiler; a worker that ended meanwhile never does. */
const WORKER_REPLY_MS = 30_000;

/**
 * Starts the V8 CPU profiler on this process's main thread and on every worker thread (each through
 * its own inspector session, reached by the NodeWorker domain), so a phase is profiled on all the
 * threads that serve it without a flag at the process's start. Resolves with the stop, which
 * returns one profile per thread that answered.
 */
export async function startThreadProfiles(intervalUs: number): Promise<() => Promise<ThreadProfile[]>> {
  const session = new Session();
  session.connect();
  const workers = new Map<string, WorkerTarget>();
  const replies = new Map<number, (message: WorkerReply) => void>();
  let nextId = 1;
  session.on('NodeWorker.attachedToWorker', (event) => {
    const { sessionId, workerInfo } = event.params;
    workers.set(sessionId, { sessionId, url: workerInfo.url, tid: null });
  });
  session.on('NodeWorker.detachedFromWorker', (event) => workers.delete(event.params.sessionId));
  session.on('NodeWorker.receivedMessageFromWorker', (event) => {
    const message = JSON.parse(event.params.message) as WorkerReply;
    const reply = message.id === undefined ? undefined : replies.get(message.id);
    if (reply) {
      replies.delete(message.id!);
      reply(message);
    }
  });
  const toWorker = async <T>(sessionId: string, method: string, params: object = {}): Promise<T> => {
    const id = nextId++;
    const answer = new Promise<WorkerReply>((resolve, reject) => {
      const timer = setTimeout(() => {
        replies.delete(id);
        reject(new Error(`worker ${sessionId} did not answer ${method}`));
      }, WORKER_REPLY_MS);
      replies.set(id, (message) => {
        clearTimeout(timer);
        resolve(message);
      });
    });
    await session.post('NodeWorker.sendMessageToWorker', {
      sessionId,
      message: JSON.stringify({ id, method, params }),
    });
    const message = await answer;
    if (message.error) throw new Error(`${method} in worker ${sessionId}: ${message.error.message}`);
    return message.result as T;
  };

  await session.post('NodeWorker.enable', { waitForDebuggerOnStart: false });
  // the workers already running are announced right after enable
  await new Promise((resolve) => setTimeout(resolve, 100));
  const profiled = [...workers.values()];
  for (const worker of profiled) {
    worker.tid = await workerTid((method, params) => toWorker(worker.sessionId, method, params));
    await toWorker(worker.sessionId, 'Profiler.enable');
    await toWorker(worker.sessionId, 'Profiler.setSamplingInterval', { interval: intervalUs });
  }
  await session.post('Profiler.enable');
  await session.post('Profiler.setSamplingInterval', { interval: intervalUs });
  await Promise.all(profiled.map((worker) => toWorker(worker.sessionId, 'Profiler.start')));
  await session.post('Profiler.start');

  return async () => {
    const out: ThreadProfile[] = [];
    const { profile } = await session.post('Profiler.stop');
    out.push({
      thread: 'main',
      entry: '',
      tid: process.platform === 'linux' ? process.pid : null,
      profile: profile as CpuProfile,
    });
    for (const worker of profiled) {
      try {
        const result = await toWorker<{ profile: CpuProfile }>(worker.sessionId, 'Profiler.stop');
        out.push({ thread: threadName(worker.url), entry: worker.url, tid: worker.tid, profile: result.profile });
      } catch (error) {
        process.stderr.write(`  · no profile from worker ${worker.url}: ${(error as Error).message}\n`);
      }
    }
    await session.post('NodeWorker.disable').catch(() => undefined);
    session.disconnect();
    return out;
  };
}

/**
 * The worker's thread id, asked of the worker itself (its inspector's console API has `require`):
 * /proc names threads by id only, and every Node worker is called `node`.
 */
async function workerTid(post: (method: string, params: object) => Promise<unknown>): Promise<number | null> {
  if (process.platform !== 'linux') return null;
  const answer = (await post('Runtime.evaluate', {
    expression: "require('node:fs').readlinkSync('/proc/thread-self')",
    includeCommandLineAPI: true,
    returnByValue: true,
  }).catch(() => null)) as { result?: { value?: unknown } } | null;
  const link = answer?.result?.value;
  const tid = typeof link === 'string' ? Number(link.slice(link.lastIndexOf('/') + 1)) : NaN;
  return Number.isInteger(tid) && tid > 0 ? tid : null;
}

/** `.../event-store/sqlite/writer-thread.js` → `writer`; an eval'd worker (run from sources) keeps its url. */
export function threadName(url: string): string {
  const file = url.slice(url.lastIndexOf('/') + 1);
  return file.replace(/(-thread)?\.(js|ts)$/, '') || url || 'worker';
}
