import fs from 'node:fs';
import path from 'node:path';
import { Worker, type WorkerOptions } from 'node:worker_threads';

/**
 * Compiles TypeScript on require with the build's own swc settings: the worker's module loader is
 * Node's, not Jest's, so under `jest` (sources, no dist/) a worker entry needs this to load.
 */
const TS_BOOTSTRAP = `
const fs = require('node:fs');
const [entry, swcrc, swcCore] = process.argv.slice(-3);
const { transformSync } = require(swcCore);
const options = JSON.parse(fs.readFileSync(swcrc, 'utf8'));
delete options.$schema;
require.extensions['.ts'] = (module, filename) => {
  const { code } = transformSync(fs.readFileSync(filename, 'utf8'), { ...options, swcrc: false, sourceMaps: false, filename });
  module._compile(code, filename);
};
require(entry);
`;

/**
 * Starts a worker thread on `entry` (a module path without extension, beside the caller): the
 * compiled .js in a build, the .ts source when running from sources.
 */
export function startWorker(entry: string, options: WorkerOptions = {}): Worker {
  if (fs.existsSync(`${entry}.js`)) return new Worker(`${entry}.js`, options);
  const source = `${entry}.ts`;
  if (!fs.existsSync(source)) throw new Error(`no worker entry at ${entry}(.js|.ts)`);
  return new Worker(TS_BOOTSTRAP, {
    ...options,
    eval: true,
    argv: [...(options.argv ?? []), source, findSwcrc(path.dirname(source)), require.resolve('@swc/core')],
  });
}

function findSwcrc(from: string): string {
  for (let dir = from; ; dir = path.dirname(dir)) {
    const candidate = path.join(dir, '.swcrc');
    if (fs.existsSync(candidate)) return candidate;
    if (path.dirname(dir) === dir) throw new Error(`no .swcrc above ${from}: cannot run a TypeScript worker`);
  }
}

/**
 * startWorker, resolved once the thread posts its first message (it is ready), with that message;
 * rejects if the thread fails first.
 */
export async function startReadyWorker<Ready = unknown>(
  entry: string,
  options: WorkerOptions = {},
): Promise<{ worker: Worker; ready: Ready }> {
  const worker = startWorker(entry, options);
  const ready = await new Promise<Ready>((resolve, reject) => {
    worker.once('error', reject);
    worker.once('message', (message: Ready) => {
      worker.off('error', reject);
      resolve(message);
    });
  });
  return { worker, ready };
}
