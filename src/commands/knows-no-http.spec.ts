import fs from 'node:fs';
import path from 'node:path';

/** Every module a TypeScript file names: static imports and re-exports, import() and require(). */
function importsOf(text: string): string[] {
  const found = text.matchAll(/(?:\bfrom\s*|\bimport\s*\(\s*|\brequire\s*\(\s*|^\s*import\s+)['"]([^'"]+)['"]/gm);
  return [...found].map((match) => match[1]);
}

function filesUnder(dir: string): string[] {
  return fs
    .readdirSync(dir, { withFileTypes: true })
    .flatMap((entry) =>
      entry.isDirectory()
        ? filesUnder(path.join(dir, entry.name))
        : entry.name.endsWith('.ts')
          ? [path.join(dir, entry.name)]
          : [],
    );
}

// The command path is called by HTTP controllers, WebSocket gateways, timers and process managers
// alike: an HTTP type here would tie all of them to Fastify (issue 53).
const HTTP = /^(fastify|@fastify\/|@nestjs\/platform-fastify|node:http|http$)/;

describe('src/commands', () => {
  it('imports no HTTP package: a request becomes a CommandContext in src/platform/http', () => {
    // this file names Fastify only in the strings that test the check itself
    const offending = filesUnder(__dirname)
      .filter((file) => file !== __filename)
      .flatMap((file) =>
        importsOf(fs.readFileSync(file, 'utf8'))
          .filter((name) => HTTP.test(name))
          .map((name) => `${path.relative(__dirname, file)} imports ${name}`),
      );
    expect(offending).toEqual([]);
  });

  it('the check sees an import of Fastify (a type-only one too)', () => {
    expect(importsOf("import type { FastifyRequest } from 'fastify';").filter((n) => HTTP.test(n))).toEqual([
      'fastify',
    ]);
    expect(importsOf("import '@nestjs/platform-fastify';")).toEqual(['@nestjs/platform-fastify']);
  });
});
