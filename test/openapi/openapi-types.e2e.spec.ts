import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startTestApp, type TestApp } from '../helpers/test-app';

const ROOT = path.join(__dirname, '..', '..');
const TARGET = path.join(ROOT, 'studio', 'src', 'api', 'schema.d.ts');

/**
 * Studio's API client is typed from studio/src/api/schema.d.ts (issue 34), committed so the Studio
 * build needs no running app. This fails when a route's document changed and the file was not
 * regenerated; `OPENAPI_TYPES_WRITE=1` writes it instead. The generator runs in its own process:
 * openapi-typescript loads ES modules Jest's loader cannot.
 */
describe("Studio's generated API types match /openapi.json", () => {
  let t: TestApp;
  let dir: string;

  beforeAll(async () => {
    t = await startTestApp({ PARLEY_TEST_CLOCK: '1' });
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'parley-openapi-types-'));
  });

  afterAll(async () => {
    await t?.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  test('studio/src/api/schema.d.ts is what openapi-typescript makes of the document', async () => {
    const documentFile = path.join(dir, 'openapi.json');
    fs.writeFileSync(documentFile, await (await fetch(`${t.url}/openapi.json`)).text());
    const out = path.join(dir, 'schema.d.ts');
    const run = spawnSync(process.execPath, [path.join(ROOT, 'scripts', 'openapi-types.js'), documentFile, out], {
      encoding: 'utf8',
    });
    expect(run.stderr).toContain('wrote');
    expect(run.status).toBe(0);
    const expected = fs.readFileSync(out, 'utf8');
    if (process.env.OPENAPI_TYPES_WRITE === '1') fs.writeFileSync(TARGET, expected);
    const committed = fs.existsSync(TARGET) ? fs.readFileSync(TARGET, 'utf8') : '';
    if (committed !== expected)
      throw new Error(
        'studio/src/api/schema.d.ts is stale: run OPENAPI_TYPES_WRITE=1 npx jest --runInBand test/openapi/openapi-types.e2e.spec.ts',
      );
    expect(committed).toContain("'/v1/api-keys/self': {");
  });
});
