import fs from 'node:fs';
import path from 'node:path';

/**
 * The repository root: the bench runs compiled from dist/bench/, but its results and the peer's
 * install live in the source tree's bench/. Walk up to the package.json that declares the bench.
 */
export function repoRoot(from: string = __dirname): string {
  let dir = path.resolve(from);
  for (let depth = 0; depth < 10; depth++) {
    const manifest = path.join(dir, 'package.json');
    if (fs.existsSync(manifest) && fs.existsSync(path.join(dir, 'bench'))) {
      const pkg = JSON.parse(fs.readFileSync(manifest, 'utf8')) as { scripts?: Record<string, string> };
      if (pkg.scripts?.bench) return dir;
    }
    const parent = path.dirname(dir);
    if (parent === dir) break;
    dir = parent;
  }
  throw new Error(`no package.json with a bench script above ${from}`);
}

/** Removes an SQLite file with its WAL and shared-memory files. */
export function removeDb(file: string): void {
  for (const suffix of ['', '-wal', '-shm', '-journal']) fs.rmSync(file + suffix, { force: true });
}
