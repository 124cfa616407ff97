#!/usr/bin/env node
// Compiles src/, projections/, bench/ and test/support/ (the PostgreSQL server the bench may start) to dist/ with swc (about a second); `npm run typecheck` runs tsc.
const fs = require('node:fs');
const path = require('node:path');
const swc = require('@swc/core');

const root = path.resolve(__dirname, '..');
const options = JSON.parse(fs.readFileSync(path.join(root, '.swcrc'), 'utf8'));
delete options.$schema;
const out = path.join(root, 'dist');

function* sources(dir) {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) {
      if (entry.name !== 'node_modules' && entry.name !== 'results' && entry.name !== 'peer') yield* sources(full);
    } else if (entry.name.endsWith('.ts') && !entry.name.endsWith('.spec.ts') && !entry.name.endsWith('.d.ts')) {
      yield full;
    }
  }
}

// A file is replaced only when its output changed, and then whole (written aside, then renamed over
// it): a process running from dist/ meanwhile, such as a test's child or another build started by a
// parallel test, never reads a missing or half-written file. Stale outputs are pruned after.
const written = new Set();
const ASIDE = '.building-';
function replace(target, text) {
  try {
    if (fs.readFileSync(target, 'utf8') === text) return;
  } catch {
    // not built yet
  }
  const aside = path.join(path.dirname(target), `${ASIDE}${process.pid}-${path.basename(target)}`);
  fs.writeFileSync(aside, text);
  fs.renameSync(aside, target);
}
let count = 0;
for (const dir of ['src', 'projections', 'bench', 'test/support']) {
  const abs = path.join(root, dir);
  if (!fs.existsSync(abs)) continue;
  for (const file of sources(abs)) {
    const rel = path.relative(root, file).replace(/\.ts$/, '.js');
    const target = path.join(out, rel);
    const result = swc.transformFileSync(file, {
      ...options,
      swcrc: false,
      filename: file,
      sourceFileName: path.relative(path.dirname(target), file),
    });
    fs.mkdirSync(path.dirname(target), { recursive: true });
    replace(target, `${result.code}\n//# sourceMappingURL=${path.basename(target)}.map\n`);
    if (result.map) replace(`${target}.map`, result.map);
    written.add(target).add(`${target}.map`);
    count++;
  }
}
/** Whether the build that wrote this aside file still runs (another build's files are not stale yet). */
function stillBuilding(name) {
  const pid = Number(name.slice(ASIDE.length).split('-')[0]);
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return error.code === 'EPERM';
  }
}
function prune(dir) {
  if (!fs.existsSync(dir)) return;
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (dir === out && (entry.name === 'studio' || entry.name.startsWith('.studio-'))) continue; // Studio's build, below
    if (entry.isDirectory()) prune(full);
    else if (!written.has(full) && !(entry.name.startsWith(ASIDE) && stillBuilding(entry.name)))
      fs.rmSync(full, { force: true });
  }
}
prune(out);
const silent = process.argv.includes('--silent');
if (!silent) console.error(`built ${count} files into dist/`);
require('./build-studio').buildStudio({ root, out, silent });
