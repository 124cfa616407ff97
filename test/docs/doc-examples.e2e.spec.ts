import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startTestApp, type TestApp } from '../helpers/test-app';
import { patient } from '../support/patience';
import { extractBlocks, type DocBlock } from './doc-blocks';
import { runChain } from './doc-runner';

/**
 * Every shell example of the README and docs/ runs, in reading order, in one bash process against
 * a freshly started app, and prints what the text claims (conventions: doc-blocks.ts and
 * CONTRIBUTING.md, "Doc examples are tests"). A doc that rots fails here, naming the doc, block, command, claim and
 * output.
 */

const ROOT = path.resolve(__dirname, '../..');
const read = (file: string) => fs.readFileSync(path.join(ROOT, file), 'utf8');

/**
 * The docs outside docs/api whose sh blocks continue the chain, in the order they run. Each doc of
 * docs/ with a sh block must be here (the first test checks), so adding one is a decision:
 * security.md goes last, because its throttle example leaves 127.0.0.1 throttled.
 */
const OTHER_DOCS = [
  'docs/fuzzing.md',
  'docs/input-rules.md',
  'docs/operations.md',
  'docs/outbound-http.md',
  'docs/privacy.md',
  'docs/retrieval.md',
  'docs/sip.md',
  'docs/sockets.md',
  'docs/security.md',
  'docs/studio.md',
  'docs/voice.md',
];

/** The docs/api files in the order of their index's table. */
function apiDocs(): string[] {
  const index = read('docs/api/README.md');
  return [...index.matchAll(/^\|[^|]*\|\s*\[[^\]]*\]\(([\w-]+\.md)\)/gm)].map((m) => `docs/api/${m[1]}`);
}

/** Every doc with a sh block, README.md and docs/api first (the tour's variables carry on). */
const docChain = (): string[] => ['README.md', ...apiDocs(), ...OTHER_DOCS];

/**
 * The whole chain runs in about 35 s on a quiet machine and several times that on a loaded one
 * (it is a few hundred requests and node starts, every one slower); past this bound its bash and
 * what it started are killed.
 */
const CHAIN_BOUND_MS = patient(60_000);

const hasJq = (() => {
  try {
    execFileSync('jq', ['--version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
})();

describe('the examples of the README and docs/', () => {
  it('chains every doc that has a sh block: docs/api in its index table, the others in OTHER_DOCS', () => {
    const withBlocks = (dir: string) =>
      fs
        .readdirSync(path.join(ROOT, dir))
        .filter((name) => name.endsWith('.md') && /^```sh\s*$/m.test(read(`${dir}/${name}`)))
        .map((name) => `${dir}/${name}`);
    expect([...apiDocs()].sort()).toEqual(withBlocks('docs/api').sort());
    expect([...OTHER_DOCS].sort()).toEqual(withBlocks('docs').sort());
  });

  it('finds no shell example under another fence name, which the chain would pass over', () => {
    const docs = [
      'README.md',
      ...['docs', 'docs/api'].flatMap((dir) =>
        fs
          .readdirSync(path.join(ROOT, dir))
          .filter((n) => n.endsWith('.md'))
          .map((n) => `${dir}/${n}`),
      ),
    ];
    const misnamed = docs.flatMap((doc) =>
      [...read(doc).matchAll(/^```(bash|shell|console|zsh)\s*$/gm)].map((m) => `${doc}: \`\`\`${m[1]} (write sh)`),
    );
    expect(misnamed).toEqual([]);
  });

  // jq is what every example pipes into; .ci/run installs it. Under CI its absence is a failure.
  const runOrSkip = hasJq || process.env.CI === 'true' ? it : it.skip;
  if (!hasJq) console.warn('doc examples NOT RUN: jq is not installed (apt-get install jq)');

  describe('run against a started app', () => {
    let t: TestApp;
    let workDir: string;
    beforeAll(async () => {
      // No OPERATOR_TOKEN: the app writes DATA_DIR/operator-token, which the tour reads. The
      // failed-login throttle is on (docs/security.md shows it) with the product's burst, but a
      // refill so slow that how many 401s come before the 429s does not depend on the machine's speed.
      t = await startTestApp({ OPERATOR_TOKEN: '', AUTH_FAILURE_RATE: '0.001' });
      workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'parley-doc-run-'));
    });
    afterAll(async () => {
      await t?.close();
      if (workDir) fs.rmSync(workDir, { recursive: true, force: true });
    });

    runOrSkip(
      'print what the text claims, with every answer 2xx unless the text shows it',
      async () => {
        expect(hasJq).toBe(true);
        const blocks: DocBlock[] = docChain().flatMap((doc) => extractBlocks(doc, read(doc)));
        const skipped = blocks.filter((b) => b.skip !== null);
        const run = blocks.filter((b) => b.skip === null);
        const result = await runChain(run, {
          workDir,
          cwd: ROOT,
          env: {
            PATH: process.env.PATH ?? '/usr/bin:/bin',
            HOME: os.homedir(),
            LANG: 'C.UTF-8',
            API: t.url,
            DATA_DIR: t.dataDir,
          },
          timeoutMs: CHAIN_BOUND_MS,
        });
        console.log(
          [
            `doc examples: ${run.length} blocks run (${result.groupsRun} command groups, ${result.ms} ms), ${skipped.length} marked not run:`,
            ...skipped.map((b) => `  ${b.doc}:${b.line} (sh block ${b.index}): ${b.skip}`),
          ].join('\n'),
        );
        expect(result.failures.join('\n\n')).toBe('');
      },
      CHAIN_BOUND_MS + 30_000,
    );
  });
});
