import fs from 'node:fs';
import path from 'node:path';

/** What a request for a path below /studio is answered with. */
export type StudioAnswer =
  | { kind: 'file'; file: string; contentType: string; cacheControl: string }
  | { kind: 'not-built' }
  | { kind: 'not-found' };

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.json': 'application/json; charset=utf-8',
  '.woff2': 'font/woff2',
};

/** Hashed asset names never change content: a year, immutable. index.html must be asked again each time. */
const IMMUTABLE = 'public, max-age=31536000, immutable';
const REVALIDATE = 'no-cache';

/** Where the build lands: dist/studio beside the app, whether it runs from dist/ (npm start) or from src/ (tests). */
export function defaultStudioDir(fromDir: string): string {
  const marker = `${path.sep}dist${path.sep}src${path.sep}`;
  const at = fromDir.lastIndexOf(marker);
  const root = at >= 0 ? fromDir.slice(0, at) : path.resolve(fromDir, '..', '..');
  return path.join(root, 'dist', 'studio');
}

/**
 * Decides the answer for `rest`, the path after `/studio/` (already URL-decoded by the router):
 * a built file if one is there (never outside the build folder, never a dotfile), a 404 for a
 * missing asset, and index.html for every other path (the app routes in the browser).
 */
export function resolveStudioPath(dir: string, rest: string): StudioAnswer {
  const index = path.join(dir, 'index.html');
  if (!fs.existsSync(index)) return { kind: 'not-built' };
  const parts = rest.split('/').filter((p) => p !== '');
  const safe = parts.every((p) => !p.startsWith('.') && !p.includes('\\') && !p.includes('\0'));
  if (safe && parts.length > 0) {
    const file = path.join(dir, ...parts);
    if (file.startsWith(dir + path.sep) && isFile(file)) {
      const ext = path.extname(file).toLowerCase();
      return {
        kind: 'file',
        file,
        contentType: TYPES[ext] ?? 'application/octet-stream',
        cacheControl: parts[0] === 'assets' ? IMMUTABLE : REVALIDATE,
      };
    }
  }
  // a missing asset is a broken link, not a page: answering HTML for a script only hides it
  if (parts[0] === 'assets' || /\.[a-z0-9]+$/i.test(parts[parts.length - 1] ?? '')) return { kind: 'not-found' };
  return { kind: 'file', file: index, contentType: TYPES['.html'], cacheControl: REVALIDATE };
}

function isFile(file: string): boolean {
  try {
    return fs.statSync(file).isFile();
  } catch {
    return false;
  }
}
