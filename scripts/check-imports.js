#!/usr/bin/env node
// Fails on any file-level import loop in src/ and projections/ (type-only imports count too: a loop
// of types is still a loop a reader has to untangle).
const path = require('node:path');
const madge = require('madge');

const root = path.resolve(__dirname, '..');

// Removed with the runner split: the lead untangles these two inside src/read-models/ once the
// dead-letters work has merged. Any other loop fails the check.
const KNOWN = [
  ['src/read-models/thread-applier.ts', 'src/read-models/apply-thread.ts'],
  ['src/read-models/verify.ts', 'src/read-models/postgres/verify-postgres.ts'],
];

const key = (cycle) => cycle.join(' > ');
const known = new Set(KNOWN.map(key));

async function main() {
  const result = await madge(['src', 'projections'], {
    baseDir: root,
    fileExtensions: ['ts'],
    tsConfig: path.join(root, 'tsconfig.json'),
  });
  const cycles = result.circular();
  const unknown = cycles.filter((cycle) => !known.has(key(cycle)));
  for (const cycle of cycles) console.log(`${known.has(key(cycle)) ? 'known  ' : 'IMPORT LOOP'} ${key(cycle)}`);
  if (unknown.length) {
    console.error(`check:imports: ${unknown.length} import loop(s) (see above); break them with an interface file both sides import`);
    process.exit(1);
  }
  console.log(`check:imports: no import loops beyond the ${cycles.length} known ones`);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
