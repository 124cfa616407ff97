#!/usr/bin/env node
// Fails on any file-level import loop in src/ and projections/ (type-only imports count too: a loop
// of types is still a loop a reader has to untangle), and on any import that breaks a layer rule of
// docs/architecture.md ("The layers"). `--root <dir>` checks another tree (the script's own spec).
const path = require('node:path');
const fs = require('node:fs');
const madge = require('madge');

/**
 * Where a file stands (docs/architecture.md, "The layers"), from the floor up: the layers, then
 * the read models (projections/), the bounded contexts (any other folder under src/), and the
 * composition root (src/app.*.ts, src/main.ts and the command-line tools under src/cli/), which
 * may import anything.
 */
const LAYERS = [
  'platform',
  'event-store',
  'commands',
  'subscriptions',
  'read-models',
  'process-managers',
  'operations',
];

const isSpec = (file) => /\.spec\.ts$/.test(file);
function zoneOf(file) {
  if (file.startsWith('projections/')) return 'projections';
  if (/^src\/[^/]+\.ts$/.test(file) || file.startsWith('src/cli/')) return 'composition';
  const match = /^src\/([^/]+)\//.exec(file);
  if (!match) return 'outside';
  return LAYERS.includes(match[1]) ? match[1] : 'context';
}
const contextOf = (file) => (zoneOf(file) === 'context' ? /^src\/([^/]+)\//.exec(file)[1] : null);

/** A layer imports only itself and the layers below it (and packages). */
function belowOrSame(layer) {
  const allowed = new Set(LAYERS.slice(0, LAYERS.indexOf(layer) + 1));
  return (to) => allowed.has(zoneOf(to));
}

/**
 * Each rule: which importing files it governs, and whether an import is allowed. Specs are exempt:
 * a test may wire real parts of any layer together.
 */
const RULES = [
  {
    name: 'platform is the floor: src/platform imports nothing outside src/platform',
    governs: (from) => zoneOf(from) === 'platform',
    allows: belowOrSame('platform'),
  },
  {
    name: 'the event store imports only the platform (a context adds upcasters through UpcasterRegistry)',
    governs: (from) => zoneOf(from) === 'event-store',
    allows: belowOrSame('event-store'),
  },
  {
    name: 'the command path imports only the event store and the platform',
    governs: (from) => zoneOf(from) === 'commands',
    allows: belowOrSame('commands'),
  },
  {
    name: 'the subscription core (feed, leases, failures, waiters) imports only the event store and the platform',
    governs: (from) => zoneOf(from) === 'subscriptions',
    allows: (to) => belowOrSame('subscriptions')(to) && zoneOf(to) !== 'commands',
  },
  {
    // the catalogue of read models it runs is the one thing it reads above itself
    name: 'read-models imports only the layers below it, and the catalogue projections/index.ts',
    governs: (from) => zoneOf(from) === 'read-models',
    allows: (to) => belowOrSame('read-models')(to) || to === 'projections/index.ts',
  },
  {
    name: 'process-managers imports only the layers below it (never a context)',
    governs: (from) => zoneOf(from) === 'process-managers',
    allows: belowOrSame('process-managers'),
  },
  {
    name: 'operations imports only the layers below it (never a context)',
    governs: (from) => zoneOf(from) === 'operations',
    allows: belowOrSame('operations'),
  },
  {
    name: "a context reads a read model only through that projection's queries.ts (never its entities)",
    governs: (from) => contextOf(from) !== null,
    allows: (to) => !to.startsWith('projections/') || /^projections\/[^/]+\/queries\.ts$/.test(to),
  },
  {
    // a read model folds events: what it needs of a context is the events' shape, never its logic
    name: 'projections/ imports only event types (src/**/*.events.ts), src/read-models, the event store and the platform',
    governs: (from) => zoneOf(from) === 'projections',
    allows: (to) =>
      ['projections', 'platform', 'event-store', 'read-models'].includes(zoneOf(to)) ||
      (contextOf(to) !== null && /\.events\.ts$/.test(to)),
  },
  {
    // test helpers and fixtures (outside src/ and projections/, reached from specs) may boot the app
    name: 'nothing but the composition root imports the composition root (src/app.*.ts, src/main.ts, src/cli/)',
    governs: (from) => !['composition', 'outside'].includes(zoneOf(from)),
    allows: (to) => zoneOf(to) !== 'composition',
  },
];

/**
 * Pairs of contexts that import each other (docs/architecture.md, "Between contexts"): each pair
 * of context folders depends one way at most, and where one must reach back, it declares a port
 * the other answers.
 */
function mutualContexts(graph) {
  const edges = new Map();
  for (const [from, imports] of Object.entries(graph)) {
    const a = contextOf(from);
    if (a === null || isSpec(from)) continue;
    for (const to of imports) {
      const b = contextOf(to);
      if (b === null || b === a) continue;
      const edge = `${a} ${b}`;
      if (!edges.has(edge)) edges.set(edge, `${from} imports ${to}`);
    }
  }
  const found = [];
  for (const [edge, example] of edges) {
    const [a, b] = edge.split(' ');
    if (a < b && edges.has(`${b} ${a}`)) found.push({ a, b, there: example, back: edges.get(`${b} ${a}`) });
  }
  return found;
}

/** The layer rules broken in a dependency map (file -> files it imports, relative to the root). */
function layerViolations(graph) {
  const found = [];
  for (const [from, imports] of Object.entries(graph)) {
    if (isSpec(from)) continue;
    for (const rule of RULES) {
      if (!rule.governs(from)) continue;
      for (const to of imports) if (!rule.allows(to)) found.push({ rule: rule.name, from, to });
    }
  }
  return found;
}

const key = (cycle) => cycle.join(' > ');

async function main() {
  const at = process.argv.indexOf('--root');
  const root = at > 0 ? path.resolve(process.argv[at + 1]) : path.resolve(__dirname, '..');
  const tsConfig = path.join(root, 'tsconfig.json');
  // absolute: madge reads the folders from the working directory, and names files from baseDir
  const dirs = ['src', 'projections'].map((dir) => path.join(root, dir)).filter((dir) => fs.existsSync(dir));
  const result = await madge(dirs, {
    baseDir: root,
    fileExtensions: ['ts'],
    ...(fs.existsSync(tsConfig) ? { tsConfig } : {}),
  });
  const cycles = result.circular();
  for (const cycle of cycles) console.log(`IMPORT LOOP ${key(cycle)}`);
  const violations = layerViolations(result.obj());
  for (const v of violations) console.log(`LAYER ${v.from} imports ${v.to}\n  rule: ${v.rule}`);
  const mutual = mutualContexts(result.obj());
  for (const m of mutual) console.log(`CONTEXTS ${m.a} and ${m.b} import each other\n  ${m.there}\n  ${m.back}`);
  if (mutual.length)
    console.error(
      `check:imports: ${mutual.length} pair(s) of contexts import each other (see above); docs/architecture.md, "Between contexts", says which way each goes`,
    );
  if (cycles.length || violations.length || mutual.length) {
    if (cycles.length)
      console.error(
        `check:imports: ${cycles.length} import loop(s) (see above); break them with an interface file both sides import`,
      );
    if (violations.length)
      console.error(
        `check:imports: ${violations.length} layer violation(s) (see above); docs/architecture.md says how to depend upward through a port`,
      );
    process.exit(1);
  }
  const files = Object.keys(result.obj()).length;
  console.log(
    `check:imports: no import loops, no layer violations and no contexts importing each other in ${files} files`,
  );
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
