/**
 * The suite again with READ_MODEL_DB=postgres (`npm run test:postgres`, CI's second pass): every
 * app a test starts keeps its read models and platform records in a PostgreSQL database of its own
 * (test/helpers/app-database.ts, the only module that reads READ_MODEL_DB). So this pass runs the
 * test files that load that module, directly or through the fixtures: the others (unit tests, the
 * store's contract, the PostgreSQL suites that start servers of their own) would run exactly as in
 * the first pass, and on a slow CI machine the two passes must fit in its 90 minutes.
 * Left out besides, each for the reason given below.
 */
const fs = require('node:fs');
const path = require('node:path');
const base = require('./jest.config');

const SWITCH = path.join(__dirname, 'test/helpers/app-database.ts');
const LEFT_OUT = [
  // read-model generation files: kill -9 during a SQLite build, blue/green file switches, verify's
  // VACUUM INTO snapshot; their PostgreSQL counterparts are postgres-runner / verify-postgres specs
  'test/read-models/kill-restart.int.spec.ts',
  'test/read-models/blue-green.int.spec.ts',
  // the channel is the subject (a browser driving the chat page, sipp answering SIP calls), not
  // where the read models live: the SQLite pass covers them, at a minute or two of CI's time each
  'test/messaging/chat-demo.browser.e2e.spec.ts',
  'test/outbound-calls/sip-carrier.e2e.spec.ts',
];

/** Relative modules a file loads at run time (`import type` is erased: it loads nothing). */
const loaded = new Map();
function loads(file) {
  if (loaded.has(file)) return loaded.get(file);
  const found = [];
  for (const line of fs.readFileSync(file, 'utf8').split('\n')) {
    if (/^\s*import type\b/.test(line)) continue;
    for (const match of line.matchAll(/(?:\bfrom\s+|\brequire\(\s*|^\s*import\s+)['"](\.{1,2}\/[^'"]+)['"]/g)) {
      const target = path.resolve(path.dirname(file), match[1]);
      const resolved = [target, `${target}.ts`, `${target}.js`, path.join(target, 'index.ts')].find((f) => fs.existsSync(f) && fs.statSync(f).isFile());
      if (resolved) found.push(resolved);
    }
  }
  loaded.set(file, found);
  return found;
}

function reachesSwitch(spec) {
  const seen = new Set([spec]);
  const queue = [spec];
  while (queue.length) {
    for (const next of loads(queue.shift())) {
      if (next === SWITCH) return true;
      if (seen.has(next)) continue;
      seen.add(next);
      queue.push(next);
    }
  }
  return false;
}

function specs(dir) {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'node_modules' ? [] : specs(full);
    return entry.name.endsWith('.spec.ts') ? [full] : [];
  });
}

const chosen = ['src', 'projections', 'test']
  .flatMap((root) => specs(path.join(__dirname, root)))
  .filter((spec) => !LEFT_OUT.includes(path.relative(__dirname, spec)) && reachesSwitch(spec));

module.exports = {
  ...base,
  testMatch: chosen.map((spec) => `<rootDir>/${path.relative(__dirname, spec)}`),
};
