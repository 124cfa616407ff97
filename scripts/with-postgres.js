#!/usr/bin/env node
'use strict';
/**
 * `node scripts/with-postgres.js -- <command> [args...]`: starts one throwaway PostgreSQL server
 * (test/support/postgres-server.ts: initdb in a temp dir, a free 127.0.0.1 port), runs the command
 * with PARLEY_TEST_POSTGRES_URL (a URL on that server; the tests create a database per app from
 * it) and READ_MODEL_DB=postgres in its environment, then stops the server and removes its dir
 * whatever happened. Exits with the command's exit code.
 */
const { spawn } = require('node:child_process');
const path = require('node:path');
// the server helper is TypeScript: compiled in memory with the build's settings (no build needed)
const ROOT = require('./register-ts');

const { findPostgresBinaries, startPostgresServer } = require(path.join(ROOT, 'test/support/postgres-server.ts'));

/** A whole test run's apps share this server: each holds a few dozen connections, several may run at once. */
const MAX_CONNECTIONS = 300;

async function main() {
  const separator = process.argv.indexOf('--');
  const [command, ...args] = separator === -1 ? process.argv.slice(2) : process.argv.slice(separator + 1);
  if (!command) {
    process.stderr.write('usage: node scripts/with-postgres.js -- <command> [args...]\n');
    return 2;
  }
  const binaries = findPostgresBinaries();
  if (!binaries) {
    process.stderr.write(
      'with-postgres: initdb, pg_ctl and postgres were found neither on PATH, nor in /usr/lib/postgresql/*/bin, nor by pg_config (Debian: apt-get install postgresql-15)\n',
    );
    return 2;
  }
  const server = await startPostgresServer(binaries, 'parley_test', { maxConnections: MAX_CONNECTIONS });
  process.stderr.write(`with-postgres: PostgreSQL (${binaries.bindir}) on 127.0.0.1:${server.port}\n`);
  try {
    const child = spawn(command, args, {
      stdio: 'inherit',
      env: { ...process.env, READ_MODEL_DB: 'postgres', PARLEY_TEST_POSTGRES_URL: server.url },
    });
    // Ctrl-C reaches the command through the terminal; a TERM sent to this script is passed on
    const forward = (signal) => child.kill(signal);
    process.on('SIGTERM', forward);
    process.on('SIGINT', () => undefined);
    const code = await new Promise((resolve, reject) => {
      child.once('error', reject);
      child.once('exit', (exitCode, signal) =>
        resolve(exitCode ?? (signal ? 128 + (require('node:os').constants.signals[signal] ?? 0) : 1)),
      );
    });
    process.removeListener('SIGTERM', forward);
    return code;
  } finally {
    await server.stop();
  }
}

main().then(
  (code) => process.exit(code),
  (error) => {
    process.stderr.write(`with-postgres: ${error instanceof Error ? error.stack : String(error)}\n`);
    process.exit(2);
  },
);
