import fs from 'node:fs';
import type { DataSource } from 'typeorm';
import type { Projection } from '../projection';

/**
 * A generation built from the start of the log on SQLite leaves out what its projection keeps up
 * to date row by row (`bulkBuild`: the conversations' full-text triggers) and builds it in one pass
 * once it has caught up, before it serves: a full-text index built by `rebuild` costs a fraction
 * of the same index fed one turn at a time. Until then it is written with `synchronous = OFF`: a
 * generation that does not serve yet is built again from the log if its file is lost, so it needs
 * no fsync. A table in the file marks the state, so a build a restart interrupted goes on the same
 * way, and whoever activates the generation finishes it first (readers never see a generation whose
 * index lags its rows: it is not served before `endBulkBuild`).
 */
const MARKER = 'bulk_build_pending';

const isSqlite = (source: DataSource) => source.options.type === 'better-sqlite3';

async function pending(source: DataSource): Promise<boolean> {
  const rows: unknown[] = await source.query(`SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?`, [MARKER]);
  return rows.length > 0;
}

/** Enters the bulk mode on a generation about to be built from the start; true if it is in it now. */
export async function beginBulkBuild(source: DataSource, projection: Projection): Promise<boolean> {
  if (!isSqlite(source)) return false;
  if (!(await pending(source))) {
    await source.transaction(async (em) => {
      for (const sql of projection.bulkBuild?.leaveOut ?? []) await em.query(sql);
      await em.query(`CREATE TABLE ${MARKER} (since TEXT NOT NULL)`);
      await em.query(`INSERT INTO ${MARKER} (since) VALUES (?)`, [new Date().toISOString()]);
    });
  }
  await source.query('PRAGMA synchronous = OFF');
  return true;
}

/** On opening a file: a build that was in the bulk mode goes on in it. */
export async function resumeBulkBuild(source: DataSource): Promise<void> {
  if (isSqlite(source) && (await pending(source))) await source.query('PRAGMA synchronous = OFF');
}

/**
 * Builds what the bulk mode left out, in one transaction with the marker's removal, and writes
 * durably again from here on; nothing if the generation is not in the bulk mode. True if it was.
 */
export async function endBulkBuild(source: DataSource, projection: Projection): Promise<boolean> {
  if (!isSqlite(source) || !(await pending(source))) return false;
  await source.query('PRAGMA synchronous = NORMAL');
  await source.transaction(async (em) => {
    for (const sql of projection.bulkBuild?.build ?? []) await em.query(sql);
    await em.query(`DROP TABLE ${MARKER}`);
  });
  // what was written without fsync reaches the disk before the generation serves
  const file = String(source.options.database);
  for (const written of [file, `${file}-wal`]) fsyncFile(written);
  return true;
}

function fsyncFile(file: string): void {
  let fd: number;
  try {
    fd = fs.openSync(file, 'r');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
    throw error;
  }
  try {
    fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
}
