'use strict';
/**
 * `require('./register-ts')`: lets plain Node require the TypeScript sources, compiled in memory by
 * swc with the build's settings (.swcrc), so a script needs no build and never touches dist/.
 * Used by scripts/with-postgres.js (the test server helper) and test/helpers/app-child.js (the app).
 * Returns the repository root.
 */
const fs = require('node:fs');
const path = require('node:path');
const swc = require('@swc/core');

const ROOT = path.resolve(__dirname, '..');
const options = JSON.parse(fs.readFileSync(path.join(ROOT, '.swcrc'), 'utf8'));
delete options.$schema;

require.extensions['.ts'] = (module, filename) => {
  const { code } = swc.transformSync(fs.readFileSync(filename, 'utf8'), {
    ...options,
    swcrc: false,
    filename,
    sourceMaps: false,
  });
  module._compile(code, filename);
};

module.exports = ROOT;
