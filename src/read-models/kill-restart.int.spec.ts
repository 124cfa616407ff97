import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import type { EventStore } from '../event-store/event-store.port';
import { START, type Position } from '../event-store/position';
import { verify } from './generations/verify';
import { appendCounterEvents, expectedFromLog } from '../../test/fixtures/counter-projection';
import { ReadSide } from '../../test/fixtures/read-side-harness';
import { INCREMENTED, NOTED, slowCounterProjection } from '../../test/fixtures/slow-counter-projection';
import { APP_PROCESS_TEST_TIMEOUT_MS, patient } from '../../test/support/patience';

/**
 * kill -9 of a process running a projection, mid-build and mid-live-appends: after a restart the
 * read model must equal a fresh replay, with exact row counts. The child runs the compiled app
 * (dist/), built here when missing or older than its sources.
 */

const ROOT = path.resolve(__dirname, '../..');
const CHILD = path.join(ROOT, 'test/fixtures/projection-child.js');
const NAME = 'slow-counters';

function* sources(dir: string): Generator<string> {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) yield* sources(full);
    else if (entry.name.endsWith('.ts') && !entry.name.endsWith('.spec.ts') && !entry.name.endsWith('.d.ts'))
      yield full;
  }
}

function ensureBuilt(): void {
  const stale = ['src', 'projections'].some((dir) =>
    [...sources(path.join(ROOT, dir))].some((file) => {
      const built = path.join(ROOT, 'dist', path.relative(ROOT, file).replace(/\.ts$/, '.js'));
      return !fs.existsSync(built) || fs.statSync(built).mtimeMs < fs.statSync(file).mtimeMs;
    }),
  );
  if (stale)
    execFileSync(process.execPath, [path.join(ROOT, 'scripts/build.js'), '--silent'], {
      cwd: ROOT,
      stdio: 'pipe',
      timeout: 60_000,
    });
}

interface Message {
  t: 'started' | 'status' | 'appended' | 'done' | 'failed';
  state?: string;
  position?: Position;
  generation?: number;
  n?: number;
  applied?: number;
  error?: string | null;
}

class Child {
  readonly messages: Message[] = [];
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  private stderr = '';
  private readonly proc: ChildProcess;
  private listeners = new Set<() => void>();

  constructor(options: { dataDir: string; spinMicros?: number; appends?: number; maxBatchSize?: number }) {
    this.proc = spawn(process.execPath, [CHILD, JSON.stringify(options)], {
      cwd: ROOT,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let buffered = '';
    this.proc.stdout!.setEncoding('utf8').on('data', (chunk: string) => {
      buffered += chunk;
      const lines = buffered.split('\n');
      buffered = lines.pop()!;
      for (const line of lines) if (line.trim()) this.messages.push(JSON.parse(line) as Message);
      for (const listener of [...this.listeners]) listener();
    });
    this.proc.stderr!.setEncoding('utf8').on('data', (chunk: string) => (this.stderr += chunk));
    this.exited = new Promise((resolve) => this.proc.on('exit', (code, signal) => resolve({ code, signal })));
    this.exited.then(() => {
      for (const listener of [...this.listeners]) listener();
    });
  }

  /** Resolves with the first message matching `predicate`; rejects on exit first or after `timeoutMs`. */
  waitFor(predicate: (m: Message) => boolean, what: string, timeoutMs = 15_000): Promise<Message> {
    return new Promise((resolve, reject) => {
      let exited = false;
      void this.exited.then(() => (exited = true));
      const check = () => {
        const found = this.messages.find(predicate);
        if (found) return finish(() => resolve(found));
        if (exited || this.proc.exitCode !== null || this.proc.signalCode !== null) {
          return finish(() => reject(new Error(`child exited before: ${what}\n${this.stderr}`)));
        }
      };
      const timer = setTimeout(
        () =>
          finish(() =>
            reject(new Error(`timed out after ${patient(timeoutMs)} ms waiting for: ${what}\n${this.stderr}`)),
          ),
        patient(timeoutMs),
      );
      const finish = (settle: () => void) => {
        clearTimeout(timer);
        this.listeners.delete(check);
        settle();
      };
      this.listeners.add(check);
      check();
    });
  }

  async kill(): Promise<void> {
    this.proc.kill('SIGKILL');
    expect(await this.exited).toEqual({ code: null, signal: 'SIGKILL' });
  }

  /** Waits for a clean exit (code 0) and returns the final `done` report. */
  async finished(timeoutMs = 20_000): Promise<Message> {
    const done = await this.waitFor((m) => m.t === 'done', 'the child finishes', timeoutMs);
    const exit = await this.exited;
    if (exit.code !== 0) throw new Error(`child exited with ${JSON.stringify(exit)}\n${this.stderr}`);
    return done;
  }

  stop(): void {
    if (this.proc.exitCode === null && this.proc.signalCode === null) this.proc.kill('SIGKILL');
  }
}

/** What is in the generation file right now: its checkpoint and row counts (opening it recovers the WAL). */
function fileState(file: string) {
  const db = new Database(file);
  try {
    const checkpoint =
      (
        db.prepare('SELECT position FROM projection_checkpoint WHERE name = ?').get(NAME) as
          { position: Position } | undefined
      )?.position ?? START;
    const lines = (db.prepare('SELECT count(*) AS n FROM line').get() as { n: number }).n;
    const sum = db
      .prepare(
        'SELECT count(*) AS rows, coalesce(sum(count), 0) AS count, coalesce(sum(total), 0) AS total FROM counter',
      )
      .get() as {
      rows: number;
      count: number;
      total: number;
    };
    return { checkpoint, lines, ...sum };
  } finally {
    db.close();
  }
}

/**
 * Polls the generation file from this process (the child's event loop is busy while it builds, so
 * it cannot be relied on to report) until its committed checkpoint satisfies `predicate`.
 */
async function waitForCheckpoint(
  file: string,
  predicate: (checkpoint: Position) => boolean,
  what: string,
  timeoutMs = 15_000,
): Promise<Position> {
  const deadline = Date.now() + patient(timeoutMs);
  for (;;) {
    if (fs.existsSync(file)) {
      let db: Database.Database | null = null;
      try {
        db = new Database(file, { readonly: true, fileMustExist: true });
        const row = db.prepare('SELECT position FROM projection_checkpoint WHERE name = ?').get(NAME) as
          { position: Position } | undefined;
        if (row && predicate(row.position)) return row.position;
      } catch {
        // not created yet (tables come with the first open)
      } finally {
        db?.close();
      }
    }
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

/** What the read model holds after applying the log up to `until`, computed from the log. */
async function expectedUpTo(store: EventStore, until: Position) {
  const events = (await store.readAll()).filter(
    (e) => e.position <= until && (e.type === INCREMENTED || e.type === NOTED),
  );
  return {
    lines: events.length,
    rows: new Set(events.map((e) => e.streamId)).size,
    count: events.length,
    total: events.reduce((n, e) => n + (e.type === INCREMENTED ? (e.data as { by: number }).by : 0), 0),
  };
}

describe('kill -9 and restart of a projection process', () => {
  let side: ReadSide;
  const children: Child[] = [];

  beforeAll(() => {
    ensureBuilt();
  }, APP_PROCESS_TEST_TIMEOUT_MS);

  beforeEach(() => {
    side = new ReadSide();
  });

  afterEach(async () => {
    for (const child of children.splice(0)) {
      child.stop();
      await child.exited;
    }
    await side.cleanup();
  });

  function start(options: { spinMicros?: number; appends?: number }): Child {
    const child = new Child({ dataDir: side.dir, ...options });
    children.push(child);
    return child;
  }

  async function expectEqualsFreshReplay(store: EventStore) {
    const projection = slowCounterProjection();
    const platform = await side.openPlatform();
    const registry = side.registry(platform);
    const active = (await registry.active(NAME, 1))!;
    expect(active).toMatchObject({ generation: 1, status: 'active' });
    expect(await registry.all()).toHaveLength(1);

    const report = await verify(projection, store, registry);
    expect(report.tables.map((t) => [t.table, t.missing, t.extra, t.changed])).toEqual([
      ['counter', 0, 0, 0],
      ['line', 0, 0, 0],
    ]);
    expect(report.differences).toBe(0);
    const head = await store.headPosition();
    expect(report.position).toBe(head);

    const expected = await expectedFromLog(store);
    const state = fileState(active.file);
    expect(state.checkpoint).toBe(head);
    expect(state.lines).toBe(expected.lines);
    expect(state.rows).toBe(expected.counters.size);
    expect(state.count).toBe(expected.lines);
    expect(state.total).toBe([...expected.counters.values()].reduce((n, c) => n + c.total, 0));
  }

  it('killed mid-build (after the checkpoint moved, before the end), restarted: equals a fresh rebuild', async () => {
    const store = await side.openStore();
    const head = await appendCounterEvents(store, { events: 30_000, streams: 40, ignoredEvery: 10, chunk: 1000 });
    const file = path.join(side.dir, 'read-models', NAME, 'v1.g1.sqlite');

    const first = start({ spinMicros: 100 });
    // A quarter of the way in: several batches committed, far from the end.
    const quarter = `${(BigInt(`0x${head.slice(0, 16)}`) / 4n).toString(16).padStart(16, '0')}:`;
    const seen = await waitForCheckpoint(
      file,
      (checkpoint) => checkpoint >= quarter,
      'a quarter of the build committed',
    );
    await first.kill();
    expect(first.messages.some((m) => m.t === 'done')).toBe(false);

    // What survived: a checkpoint past the start and before the head, with exactly the rows up to it.
    const killed = fileState(file);
    expect(killed.checkpoint >= seen).toBe(true);
    expect(killed.checkpoint < head).toBe(true);
    const upTo = await expectedUpTo(store, killed.checkpoint);
    expect({ lines: killed.lines, rows: killed.rows, count: killed.count, total: killed.total }).toEqual(upTo);
    {
      const platform = await side.openPlatform();
      expect((await side.registry(platform).all()).map((r) => [r.generation, r.status])).toEqual([[1, 'building']]);
      await platform.destroy();
    }

    const second = start({ spinMicros: 10 });
    const done = await second.finished();
    expect(done).toMatchObject({ state: 'serving', generation: 1, position: head });
    // It resumed the same generation from the stored checkpoint: only the rest went through the handlers.
    const total = (await expectedFromLog(store)).lines;
    expect(done.applied).toBe(total - killed.lines);

    await expectEqualsFreshReplay(store);
  });

  it('killed during live appends, restarted: equals a fresh rebuild', async () => {
    const store = await side.openStore();
    await appendCounterEvents(store, { events: 2000, streams: 10, ignoredEvery: 10 });
    const file = path.join(side.dir, 'read-models', NAME, 'v1.g1.sqlite');

    const first = start({ spinMicros: 300, appends: 5000 });
    await first.waitFor((m) => m.t === 'appended' && m.n! >= 600, 'live appends under way');
    await first.kill();
    expect(first.messages.some((m) => m.t === 'done')).toBe(false);

    const head = await store.headPosition();
    const appended = (await store.readAll()).filter((e) => e.streamId.startsWith('live-')).length;
    expect(appended).toBeGreaterThanOrEqual(600);
    expect(appended).toBeLessThan(5000);
    const killed = fileState(file);
    expect(killed.checkpoint <= head).toBe(true);
    const upTo = await expectedUpTo(store, killed.checkpoint);
    expect({ lines: killed.lines, rows: killed.rows, count: killed.count, total: killed.total }).toEqual(upTo);

    const second = start({ spinMicros: 10 });
    const done = await second.finished();
    expect(done).toMatchObject({ state: 'serving', generation: 1, position: head });
    expect(done.applied).toBe((await expectedFromLog(store)).lines - killed.lines);

    await expectEqualsFreshReplay(store);
  });
});
