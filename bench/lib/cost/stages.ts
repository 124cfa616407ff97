/**
 * Attributes a V8 CPU profile's samples to the stages of a conversation turn, so the bench can say
 * where a turn's CPU goes without any instrumentation in the hot path.
 *
 * Each sample's stack is matched against STAGE_RULES; the rule that comes first in the table wins,
 * wherever its frame sits on the stack. So the order is the priority: a projection's handler owns
 * every frame it calls (TypeORM, better-sqlite3, a shared fold), retrieval owns what the runtime
 * calls inside it, and HTTP, last, gets only what no deeper stage claims. Frames the table does not
 * name (node internals, unlisted libraries, native calls) take the stage of a frame that it does.
 */

/** The subset of Chrome's .cpuprofile format (Profiler.stop's result) this reads. */
interface CpuProfileNode {
  id: number;
  callFrame: { functionName: string; url: string };
  children?: number[];
}

export interface CpuProfile {
  nodes: CpuProfileNode[];
  startTime: number;
  endTime: number;
  samples: number[];
  timeDeltas: number[];
}

interface StageRule {
  /** the stage's name; `$1` is replaced by the path's first capture (a read model's folder) */
  stage: string;
  /** matched against the frame's path relative to the repository (`src/...`, `node_modules/<pkg>/...`, `node:...`) */
  path: RegExp;
  /** and, when given, against the frame's function name */
  fn?: RegExp;
}

export const GC = 'GC';
export const IDLE = 'idle';
export const PROGRAM = '(program): native, outside JS';
/** the bench's own frames: starting and stopping the profiler, mostly */
export const HARNESS = 'bench harness (profiler)';
export const OTHER = 'other JS (no stage frame on the stack)';
/** Rows that are not the turn's work: left out of the per-turn total. */
export const OUTSIDE_TURN = new Set([IDLE, HARNESS]);

const HTTP_LIBRARIES =
  /^node_modules\/(fastify|@fastify\/[^/]+|@nestjs\/[^/]+|find-my-way|light-my-request|avvio|class-validator|class-transformer|secure-json-parse|fast-json-stringify|rxjs)\//;

/** In priority order: the first rule any frame of a stack matches decides the sample's stage. */
const STAGE_RULES: StageRule[] = [
  { stage: HARNESS, path: /^bench\// },
  { stage: 'process managers', path: /^src\/(process-managers\/|.*\.process-manager\.)/ },
  { stage: 'read-model queries (answers)', path: /^projections\/[^/]+\/(sqlite-|postgres-)?queries\./ },
  { stage: 'apply: $1', path: /^projections\/([^/]+)\// },
  { stage: 'read-your-writes wait', path: /^src\/read-models\/read-your-writes\./ },
  // the runner: reading the log for each runner, batching, the apply thread's transactions and checkpoints
  { stage: 'read models: log read, runner, commits', path: /^src\/read-models\// },
  { stage: 'read models: log read, runner, commits', path: /^src\/event-store\/sqlite\/(subscription|tail-window)\./ },
  {
    stage: 'read models: log read, runner, commits',
    path: /^src\/event-store\/sqlite\/sqlite-event-store\./,
    fn: /^(poll|schedulePoll|extendTail|releaseTail|readAll)/,
  },
  { stage: 'retrieval', path: /^src\/runtime\/retrieval\// },
  { stage: 'state load', path: /^src\/platform\/commands\/aggregate-cache\./ },
  { stage: 'state load', path: /^src\/platform\/commands\/command-handler\./, fn: /^peek$/ },
  { stage: 'state load', path: /\.decider\./, fn: /^evolve$/ },
  { stage: 'state load', path: /^src\/event-store\/(upcasting\.|.*event-store\.)/, fn: /^read/ },
  { stage: 'append', path: /^src\/event-store\// },
  { stage: 'decide', path: /\.decider\./ },
  { stage: 'decide', path: /^src\/platform\/commands\// },
  {
    stage: 'answer: runtime, engine, service',
    path: /^src\/(runtime|conversations|debug-chat)\/(?!.*\.(controller|dto)\.)/,
  },
  { stage: 'HTTP and auth', path: /^src\/platform\/(http|auth|validation|errors|idempotency)\// },
  { stage: 'HTTP and auth', path: /\.(controller|dto)\./ },
  { stage: 'HTTP and auth', path: HTTP_LIBRARIES },
  { stage: 'HTTP and auth', path: /^node:(_http_|net$|internal\/(streams\/|stream_base_commons|http))/ },
];

const SPECIAL: Record<string, string> = {
  '(garbage collector)': GC,
  '(idle)': IDLE,
  '(program)': PROGRAM,
  '(root)': PROGRAM,
};

/**
 * A frame's url as a path the rules read: `node_modules/<pkg>/...` for a dependency (wherever it
 * is installed), the path below the repository (less the build's `dist/`) for the project's own,
 * `node:...` as is.
 */
export function framePath(url: string, root: string): string {
  const file = url.startsWith('file://') ? decodeURIComponent(url.slice('file://'.length)) : url;
  const modules = file.lastIndexOf('/node_modules/');
  if (modules >= 0) return file.slice(modules + 1);
  const base = root.endsWith('/') ? root : `${root}/`;
  if (!file.startsWith(base)) return file;
  const inside = file.slice(base.length);
  return inside.startsWith('dist/') ? inside.slice('dist/'.length) : inside;
}

function ruleFor(path: string, functionName: string): { rank: number; stage: string } | null {
  for (let rank = 0; rank < STAGE_RULES.length; rank++) {
    const rule = STAGE_RULES[rank];
    const match = rule.path.exec(path);
    if (match && (!rule.fn || rule.fn.test(functionName)))
      return { rank, stage: rule.stage.replace('$1', match[1] ?? '') };
  }
  return null;
}

export interface Attribution {
  /** µs of samples by stage; every sample lands in exactly one */
  stages: Map<string, number>;
  /** µs covered by the samples (the sum of timeDeltas), taken straight from the profile */
  sampledUs: number;
  /** the profile's own span, endTime − startTime */
  windowUs: number;
}

/**
 * Sums each sample's time into its stage. `entry` is the thread's entry script (a worker's file),
 * read as an outermost frame under every stack: a writer thread's unnamed work is the append's.
 */
export function attribute(profile: CpuProfile, root: string, entry?: string): Attribution {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const childIds = new Set(profile.nodes.flatMap((node) => node.children ?? []));
  const base = entry ? ruleFor(framePath(entry, root), '') : null;
  // each node's best rule over itself and its callers, top down from the root(s)
  const best = new Map<number, { rank: number; stage: string } | null>();
  const pending = profile.nodes.filter((node) => !childIds.has(node.id)).map((node) => ({ node, above: base }));
  while (pending.length > 0) {
    const { node, above } = pending.pop()!;
    const own = ruleFor(framePath(node.callFrame.url, root), node.callFrame.functionName);
    const chosen = own && (!above || own.rank < above.rank) ? own : above;
    best.set(node.id, chosen);
    for (const child of node.children ?? []) {
      const next = byId.get(child);
      if (next && !best.has(child)) pending.push({ node: next, above: chosen });
    }
  }
  const stages = new Map<string, number>();
  let sampledUs = 0;
  profile.samples.forEach((id, i) => {
    const us = profile.timeDeltas[i] ?? 0;
    sampledUs += us;
    const node = byId.get(id);
    const special = node && node.callFrame.url === '' ? SPECIAL[node.callFrame.functionName] : undefined;
    const stage = special ?? best.get(id)?.stage ?? OTHER;
    stages.set(stage, (stages.get(stage) ?? 0) + us);
  });
  return { stages, sampledUs, windowUs: profile.endTime - profile.startTime };
}
