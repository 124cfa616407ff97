import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { DataSource } from 'typeorm';
import { openReadModel } from '../../src/read-models/generations/open-read-model';
import { openPostgresReadModel } from '../../src/read-models/generations/postgres/open-postgres-read-model';
import type { Projection } from '../../src/read-models/projection';
import { describeOnPostgres } from './postgres-server';

/** Opens a new, empty generation of `projection`; closed after the test. */
export type OpenGeneration = (projection: Projection) => Promise<DataSource>;

/**
 * Declares `suite` twice: on a read-model generation file (SQLite), and on a generation schema of
 * a throwaway PostgreSQL server (one server for the file, a schema per generation). Without the
 * PostgreSQL binaries the second is skipped loudly (and fails under CI=true).
 */
export function describeEachReadModelDatabase(title: string, suite: (open: OpenGeneration) => void): void {
  describe(`${title} (SQLite)`, () => {
    let dir: string;
    beforeEach(() => {
      dir = fs.mkdtempSync(path.join(os.tmpdir(), 'parley-rm-'));
    });
    let next = 0;
    withGenerations(
      (projection) => openReadModel(projection, path.join(dir, `${projection.name}.g${++next}.sqlite`)),
      suite,
    );
    afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));
  });
  describeOnPostgres(`${title} (PostgreSQL)`, (server) => {
    let next = 0;
    withGenerations((projection) => openPostgresReadModel(projection, server().url, `rm_test_g${++next}`), suite);
  });
}

function withGenerations(open: OpenGeneration, suite: (open: OpenGeneration) => void): void {
  const opened: DataSource[] = [];
  suite(async (projection) => {
    const source = await open(projection);
    opened.push(source);
    return source;
  });
  // declared after the suite's own hooks, so it runs after them
  afterEach(async () => {
    for (const source of opened.splice(0)) if (source.isInitialized) await source.destroy();
  });
}
