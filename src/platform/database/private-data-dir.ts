import fs from 'node:fs';
import path from 'node:path';

/** Owner-only: the data holds every tenant's conversations, key digests and the server secret. */
const FILE_MODE = 0o600;
const DIR_MODE = 0o700;
/** A data directory is a handful of folders deep; a deeper tree is not ours to walk. */
const MAX_DEPTH = 8;

/**
 * Makes DATA_DIR private to the user running Parley, before anything opens a file in it. The
 * process umask (0077) covers every file created from now on, in this process and its threads:
 * SQLite databases and their -wal/-shm files, generation files a rebuild creates later, secrets.
 * A chmod of what is already there covers data directories written by older versions (0644).
 * Symbolic links are neither followed nor changed. Returns the paths it was not allowed to change
 * (owned by another user), for the caller to warn about: that is no reason to refuse to start.
 */
export function makeDataDirPrivate(dataDir: string): string[] {
  process.umask(0o077);
  fs.mkdirSync(dataDir, { recursive: true, mode: DIR_MODE });
  const refused: string[] = [];
  tighten(dataDir, 0, refused);
  return refused;
}

function tighten(dir: string, depth: number, refused: string[]): void {
  chmod(dir, DIR_MODE, refused);
  if (depth >= MAX_DEPTH) return;
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const child = path.join(dir, entry.name);
    if (entry.isDirectory()) tighten(child, depth + 1, refused);
    else if (entry.isFile()) chmod(child, FILE_MODE, refused);
  }
}

function chmod(file: string, mode: number, refused: string[]): void {
  try {
    fs.chmodSync(file, mode);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EPERM') throw error;
    refused.push(file);
  }
}
