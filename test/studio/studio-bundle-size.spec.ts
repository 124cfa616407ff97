import path from 'node:path';
import { JS_BUDGET_KB, studioScriptsGzipBytes } from '../../bench/lib/studio-bundle';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const { buildStudio } = require('../../scripts/build-studio');

const ROOT = path.resolve(__dirname, '..', '..');

/**
 * Issue 34: the console's JavaScript is at most 300 KB gzipped. Counted as the bench counts it
 * (every script of the build, gzip -9), on a build of the current sources (skipped when unchanged).
 */
describe('Studio bundle size', () => {
  it(`ships at most ${JS_BUDGET_KB} KB of gzipped JavaScript`, () => {
    buildStudio({ root: ROOT, out: path.join(ROOT, 'dist'), silent: true });
    const kb = studioScriptsGzipBytes(path.join(ROOT, 'dist', 'studio')) / 1024;
    expect(kb).toBeGreaterThan(10);
    expect(kb).toBeLessThanOrEqual(JS_BUDGET_KB);
  }, 180_000);
});
