import fs from 'node:fs';
import path from 'node:path';

const ROOT = path.resolve(__dirname, '../..');
const read = (file: string) => fs.readFileSync(path.join(ROOT, file), 'utf8');

interface NestCli {
  sourceRoot: string;
  entryFile: string;
  compilerOptions: {
    tsConfigPath: string;
    builder: { type: string; options: { swcrcPath: string } };
    typeCheck: boolean;
    deleteOutDir: boolean;
  };
}

/**
 * nest-cli.json describes the layout to the Nest CLI (`nest generate`) while scripts/build.js
 * stays the build: what it names must be what the build and `npm start` use, or a generated file
 * and a CLI build would land somewhere the app does not run from.
 */
describe('nest-cli.json matches the layout and the build', () => {
  const cli = JSON.parse(read('nest-cli.json')) as NestCli;
  const tsconfig = JSON.parse(read(cli.compilerOptions.tsConfigPath)) as {
    compilerOptions: { outDir: string; rootDir: string };
  };

  it('its source root holds the entry file, the app module beside it (where generated modules register)', () => {
    expect(fs.existsSync(path.join(ROOT, cli.sourceRoot, `${cli.entryFile}.ts`))).toBe(true);
    expect(fs.existsSync(path.join(ROOT, cli.sourceRoot, 'app.module.ts'))).toBe(true);
  });

  it('its entry, compiled where the tsconfig puts it, is what npm start runs', () => {
    const { outDir, rootDir } = tsconfig.compilerOptions;
    const built = path.posix.join(
      outDir,
      path.posix.relative('.', path.posix.join(rootDir, cli.sourceRoot)),
      `${cli.entryFile}.js`,
    );
    const start = (JSON.parse(read('package.json')) as { scripts: { start: string } }).scripts.start;
    expect(start.split(' ')).toContain(built);
  });

  it('it compiles as scripts/build.js does: swc with the same .swcrc, no type check, dist/ never deleted whole', () => {
    const build = read('scripts/build.js');
    expect(cli.compilerOptions.builder.type).toBe('swc');
    expect(build).toContain(`path.join(root, '${cli.compilerOptions.builder.options.swcrcPath}')`);
    // the type check is npm run typecheck; a build replaces files in place and prunes stale ones
    expect(cli.compilerOptions.typeCheck).toBe(false);
    expect(cli.compilerOptions.deleteOutDir).toBe(false);
  });
});
