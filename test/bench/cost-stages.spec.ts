import fs from 'node:fs';
import path from 'node:path';
import { breakdown, breakdownTable, UNPROFILED } from '../../bench/lib/cost/breakdown';
import { attribute, framePath, GC, HARNESS, IDLE, OTHER, PROGRAM, type CpuProfile } from '../../bench/lib/cost/stages';
import { threadName } from '../../bench/lib/cost/thread-profiles';

/** A hand-built profile of one turn's stacks, each leaf's time a different number so a misplaced one shows. */
const turn = (): CpuProfile =>
  JSON.parse(fs.readFileSync(path.join(__dirname, 'fixtures/turn.cpuprofile'), 'utf8')) as CpuProfile;

/** A writer thread: its work has no project frame but the thread's own entry file. */
const writer = (): CpuProfile => ({
  nodes: [
    { id: 1, callFrame: { functionName: '(root)', url: '' }, children: [2, 3] },
    { id: 2, callFrame: { functionName: '(idle)', url: '' } },
    { id: 3, callFrame: { functionName: '', url: 'node:internal/per_context/messageport' }, children: [4] },
    { id: 4, callFrame: { functionName: 'run', url: '' } },
  ],
  startTime: 0,
  endTime: 1000,
  samples: [2, 4, 4],
  timeDeltas: [400, 300, 300],
});
const WRITER_ENTRY = 'file:///repo/dist/src/event-store/sqlite/writer-thread.js';

describe('bench cost: attributing a CPU profile to a turn’s stages', () => {
  it('puts each sample in the stage its highest-ranked frame names', () => {
    const { stages, sampledUs, windowUs } = attribute(turn(), '/repo');
    expect(Object.fromEntries(stages)).toEqual({
      [PROGRAM]: 100,
      [IDLE]: 2000,
      [GC]: 200,
      // under the service, under the controller: retrieval owns what it calls
      retrieval: 390,
      'state load': 50,
      decide: 70,
      // a native call with no url takes its caller's stage
      append: 80,
      // validation under the controller, and the controller's own frame
      'HTTP and auth': 440,
      'read-model queries (answers)': 60,
      // the projection owns the row writer and the native insert under it
      'apply: conversations': 500,
      // parsing the log for a runner is the runner's, though rows.ts lives in the event store
      'read models: log read, runner, commits': 90,
      [OTHER]: 20,
      [HARNESS]: 1500,
    });
    expect(sampledUs).toBe(5500);
    expect(windowUs).toBe(5500);
  });

  it('reads a worker’s entry file as the stage of its otherwise unnamed work', () => {
    expect(Object.fromEntries(attribute(writer(), '/repo', WRITER_ENTRY).stages)).toEqual({ [IDLE]: 400, append: 600 });
    expect(Object.fromEntries(attribute(writer(), '/repo').stages)).toEqual({ [IDLE]: 400, [OTHER]: 600 });
  });

  it('names frames by their place in the repository or the package they come from', () => {
    expect(framePath('file:///repo/dist/src/runtime/retrieval/fuzzy.js', '/repo')).toBe(
      'src/runtime/retrieval/fuzzy.js',
    );
    expect(framePath('file:///repo/src/runtime/retrieval/fuzzy.ts', '/repo/')).toBe('src/runtime/retrieval/fuzzy.ts');
    expect(framePath('file:///main/node_modules/a/node_modules/fastify/lib/reply.js', '/repo')).toBe(
      'node_modules/fastify/lib/reply.js',
    );
    expect(framePath('node:_http_server', '/repo')).toBe('node:_http_server');
    // a checkout whose own path holds `src/` is still read from its root
    expect(framePath('file:///home/src/repo/dist/bench/run.js', '/home/src/repo')).toBe('bench/run.js');
    expect(threadName(WRITER_ENTRY)).toBe('writer');
    expect(threadName('')).toBe('worker');
  });

  it('shares each thread’s CPU out by its profile and adds the threads no profile covers', () => {
    const cpu = new Map([
      [10, { name: 'node', ms: 2 }],
      [11, { name: 'node', ms: 1 }],
      [12, { name: 'node', ms: 3 }],
      [13, { name: 'v8:ProfEvntProc', ms: 5 }],
    ]);
    const b = breakdown(
      [
        { thread: 'main', entry: '', tid: 10, profile: turn() },
        { thread: 'writer', entry: WRITER_ENTRY, tid: 11, profile: writer() },
      ],
      2,
      '/repo',
      200,
      cpu,
    );
    const [main, thread] = b.threads;
    // 2 ms over 2 turns on the main thread, whose turn work the profile saw for 2,000 µs: half of each
    expect(main.cpuPerTurn).toBe(1000);
    expect(main.perTurn['apply: conversations']).toBe(250);
    expect(main.perTurn[IDLE]).toBeUndefined();
    expect(main.perTurn[HARNESS]).toBeUndefined();
    expect(Object.values(main.perTurn).reduce((x, y) => x + y, 0)).toBeCloseTo(1000, 6);
    expect(main.wallPerTurn).toBe(1000);
    expect(main.idlePerTurn).toBe(1000);
    expect(main.harnessPerTurn).toBe(750);
    expect(thread.perTurn).toEqual({ append: 500 });
    expect(b.unprofiledPerTurn).toBe(1500);
    // the profiler's own sampling threads are the measuring's cost, not the turn's
    expect(b.samplersPerTurn).toBe(2500);
    expect(b.busyPerTurn).toBe(3000);
    expect(b.sumCheck.ok).toBe(true);

    const table = breakdownTable(b);
    expect(table).toMatch(/^CPU µs per turn, by stage +main +writer +others +all +share$/m);
    expect(table).toMatch(/^= the turn \(the rows above\) +1,000 +500 +1,500 +3,000 +100\.0%$/m);
    expect(table).toMatch(new RegExp(`^${UNPROFILED.replace(/[()]/g, '\\$&')} +- +- +1,500 +1,500 +50\\.0%$`, 'm'));
  });

  it('without /proc, reports the profiles’ wall time', () => {
    const b = breakdown([{ thread: 'main', entry: '', tid: null, profile: turn() }], 2, '/repo', 200, null);
    expect(b.threads[0].cpuPerTurn).toBeNull();
    expect(b.threads[0].perTurn['apply: conversations']).toBe(250);
    expect(b.busyPerTurn).toBe(1000);
    expect(breakdownTable(b)).toMatch(/^wall µs per turn, by stage +main +all +share$/m);
  });

  it('allows an unsampled tail no longer than the longest gap between samples', () => {
    const tail = { ...turn(), endTime: 1_000_000 + 5500 + 1400 };
    expect(breakdown([{ thread: 'main', entry: '', tid: null, profile: tail }], 1, '/repo', 200).sumCheck).toEqual({
      ok: true,
      worst: 'main: 1400 µs of 6900 µs',
    });
  });

  it('fails the sum check when the samples do not cover the profile’s window', () => {
    const short = { ...turn(), endTime: 1_000_000 + 5500 + 10_000 };
    const b = breakdown([{ thread: 'main', entry: '', tid: null, profile: short }], 1, '/repo', 200);
    expect(b.sumCheck.ok).toBe(false);
    expect(b.sumCheck.worst).toBe('main: 10000 µs of 15500 µs');
  });
});
