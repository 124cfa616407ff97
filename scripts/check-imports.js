#!/usr/bin/env node
// Fails on any file-level import loop in src/ and projections/ (type-only imports count too: a loop
// of types is still a loop a reader has to untangle).
const path = require('node:path');
const madge = require('madge');

const root = path.resolve(__dirname, '..');

const key = (cycle) => cycle.join(' > ');

async function main() {
  const result = await madge(['src', 'projections'], {
    baseDir: root,
    fileExtensions: ['ts'],
    tsConfig: path.join(root, 'tsconfig.json'),
  });
  const cycles = result.circular();
  for (const cycle of cycles) console.log(`IMPORT LOOP ${key(cycle)}`);
  if (cycles.length) {
    console.error(
      `check:imports: ${cycles.length} import loop(s) (see above); break them with an interface file both sides import`,
    );
    process.exit(1);
  }
  console.log(`check:imports: no import loops in ${Object.keys(result.obj()).length} files`);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
