// Writes studio/src/api/schema.d.ts, the TypeScript types of the OpenAPI document, with
// openapi-typescript. The file is committed rather than made by the Studio build: making it needs
// the whole app booted to build the document, which `npm start` should not pay for on every source
// change; test/openapi/openapi-types.e2e.spec.ts fails when the committed file is stale.
//
//   node scripts/openapi-types.js <http://host:port/openapi.json | openapi.json> [out file]
//   OPENAPI_TYPES_WRITE=1 npx jest --runInBand test/openapi/openapi-types.e2e.spec.ts   (same, no server needed)
const fs = require('node:fs');
const path = require('node:path');

const TARGET = path.join(__dirname, '..', 'studio', 'src', 'api', 'schema.d.ts');

const HEADER =
  '/**\n * Generated from /openapi.json by scripts/openapi-types.js (openapi-typescript): do not edit.\n' +
  ' * Regenerate: OPENAPI_TYPES_WRITE=1 npx jest --runInBand test/openapi/openapi-types.e2e.spec.ts\n */\n';

/** The types of one document, as the committed file holds them. */
async function generateTypes(document) {
  const { default: openapiTS, astToString } = require('openapi-typescript');
  // the servers differ per PUBLIC_DOMAIN; the types must not
  const ast = await openapiTS({ ...document, servers: [] }, { alphabetize: true, exportType: true });
  // laid out as Prettier lays out the rest of studio/src, so `npm run format:check` holds for it too
  const prettier = require('prettier');
  const options = (await prettier.resolveConfig(TARGET)) ?? {};
  return prettier.format(HEADER + astToString(ast), { ...options, parser: 'typescript' });
}

async function readDocument(source) {
  if (/^https?:\/\//.test(source)) {
    const response = await fetch(source);
    if (!response.ok) throw new Error(`${source} answered ${response.status}`);
    return response.json();
  }
  return JSON.parse(fs.readFileSync(source, 'utf8'));
}

async function main() {
  const [source, out = TARGET] = process.argv.slice(2);
  if (!source) {
    console.error('usage: node scripts/openapi-types.js <url of /openapi.json | file> [out file]');
    process.exit(2);
  }
  fs.writeFileSync(out, await generateTypes(await readDocument(source)));
  console.error(`wrote ${path.relative(process.cwd(), out)}`);
}

main().catch((error) => {
  console.error(error.message);
  process.exit(1);
});
