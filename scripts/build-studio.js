// Builds Studio (studio/, Vite) into dist/studio when its sources changed since the last build, so
// `npm start` (which builds first) stays fast. Like the rest of the build, the new folder is
// written aside and moved into place, so a server reading dist/studio never sees half of it.
const crypto = require('node:crypto');
const fs = require('node:fs');
const path = require('node:path');
const { spawnSync } = require('node:child_process');

const HASH_FILE = '.source-hash';

function* files(dir) {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) {
      if (entry.name !== 'node_modules') yield* files(full);
    } else yield full;
  }
}

/** Everything the bundle is made of: Studio's folder, the server files it imports, and the tool versions. */
function sourceHash(root) {
  const hash = crypto.createHash('sha256');
  const inputs = [
    ...files(path.join(root, 'studio')),
    path.join(root, 'src/runtime/actions/parse-actions.ts'),
    path.join(root, 'src/platform/http/hosts.ts'),
    // the runtime settings' checks (the settings page validates as the API does) and what they import
    ...[
      'agents/runtime-settings.ts',
      'agents/runtime-settings.types.ts',
      'agents/analysis-settings.ts',
      'agents/agent.events.ts',
      'platform/validation/field-checks.ts',
      'platform/errors/domain-error.ts',
      'privacy/redact-kinds.ts',
    ].map((file) => path.join(root, 'src', file)),
  ];
  for (const file of inputs) hash.update(path.relative(root, file)).update('\0').update(fs.readFileSync(file));
  for (const pkg of ['vite', 'react', 'react-dom']) {
    try {
      hash.update(pkg).update(require(path.join(root, 'node_modules', pkg, 'package.json')).version);
    } catch {
      hash.update(`${pkg} missing`);
    }
  }
  return hash.digest('hex');
}

function buildStudio({ root, out, silent }) {
  if (!fs.existsSync(path.join(root, 'studio'))) return;
  const target = path.resolve(out, 'studio');
  const hash = sourceHash(root);
  try {
    if (fs.readFileSync(path.join(target, HASH_FILE), 'utf8') === hash) return;
  } catch {
    // not built yet
  }
  const vite = path.join(root, 'node_modules', 'vite', 'bin', 'vite.js');
  if (!fs.existsSync(vite)) {
    console.error(
      'Studio not built: vite is not installed (npm install with dev dependencies); /studio will answer 404',
    );
    return;
  }
  const aside = path.resolve(out, `.studio-${process.pid}`);
  fs.rmSync(aside, { recursive: true, force: true });
  const result = spawnSync(
    process.execPath,
    [vite, 'build', '--config', path.join(root, 'studio', 'vite.config.mjs')],
    {
      cwd: root,
      // production: a test runner's NODE_ENV=test would bundle React's development build
      env: { ...process.env, NODE_ENV: 'production', STUDIO_OUT_DIR: aside },
      stdio: silent ? ['ignore', 'ignore', 'inherit'] : 'inherit',
    },
  );
  if (result.status !== 0) {
    fs.rmSync(aside, { recursive: true, force: true });
    throw new Error(`Studio build failed (vite exited with ${result.status ?? result.signal})`);
  }
  fs.writeFileSync(path.join(aside, HASH_FILE), hash);
  // Another build may have finished first with the same sources: either result is the same.
  const old = path.resolve(out, `.studio-old-${process.pid}`);
  try {
    fs.renameSync(target, old);
  } catch (error) {
    if (error.code !== 'ENOENT') throw error;
  }
  try {
    fs.renameSync(aside, target);
  } catch (error) {
    if (error.code !== 'ENOTEMPTY' && error.code !== 'EEXIST') throw error;
    fs.rmSync(aside, { recursive: true, force: true }); // a parallel build placed its own meanwhile
  }
  fs.rmSync(old, { recursive: true, force: true });
  if (!silent) console.error('built Studio into dist/studio');
}

module.exports = { buildStudio };
