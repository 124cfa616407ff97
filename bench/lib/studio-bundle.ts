import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';

/** Issue 34's budgets: the conversations page within 1 s of navigation, Studio's JavaScript within 300 KB gzipped. */
export const PAGE_BUDGET_MS = 1000;
export const JS_BUDGET_KB = 300;

/** gzip -9 of every script Studio ships (dist/studio/assets), as a browser downloads them. */
export function studioScriptsGzipBytes(studioDir: string): number {
  const assets = path.join(studioDir, 'assets');
  return fs
    .readdirSync(assets)
    .filter((f) => f.endsWith('.js'))
    .reduce((sum, f) => sum + zlib.gzipSync(fs.readFileSync(path.join(assets, f)), { level: 9 }).length, 0);
}
