'use strict';
/**
 * The whole app in a child process, for kill -9 tests: `node app-child.js '<json env>'`. It runs
 * the TypeScript sources, compiled in memory by swc with the build's settings (.swcrc), so it
 * needs no build and never touches dist/. Prints `{"t":"listening","url":...}` once it serves.
 */
const path = require('node:path');
const ROOT = require('../../scripts/register-ts');

require('reflect-metadata');
const pino = require('pino');
const { createApp } = require(path.join(ROOT, 'src/app.factory.ts'));
const { loadConfig } = require(path.join(ROOT, 'src/platform/config/config.ts'));

// The test process holds the other end of stdin: when it ends, killed or not, this app ends too
// instead of serving on, orphaned, beside the tests after it.
process.stdin.on('end', () => process.exit(0)).resume();

async function main() {
  const env = JSON.parse(process.argv[2]);
  const config = loadConfig({ PORT: '0', HOST: '127.0.0.1', ...env });
  const app = await createApp(config, pino({ level: process.env.TEST_LOG_LEVEL ?? 'silent' }));
  await app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = app.getHttpServer().address();
  process.stdout.write(`${JSON.stringify({ t: 'listening', url: `http://127.0.0.1:${port}` })}\n`);
}

main().catch((error) => {
  process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
