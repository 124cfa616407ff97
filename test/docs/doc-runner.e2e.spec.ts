import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { extractBlocks } from './doc-blocks';
import { runChain } from './doc-runner';

/**
 * The runner against a tiny real HTTP server on loopback: what makes a doc example fail (an
 * unclaimed non-2xx answer, a wrong claim, a failing command) and what does not.
 */
describe('doc runner', () => {
  let server: http.Server;
  let api: string;
  let workDir: string;

  beforeAll(async () => {
    server = http.createServer((req, res) => {
      const [status, body] =
        req.url === '/ok' ? [200, { id: 'ok-1', n: 2 }] : [404, { success: false, error_code: 'THING_NOT_FOUND' }];
      res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    api = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => new Promise((resolve) => server.close(resolve)));
  beforeEach(() => (workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'parley-doc-runner-'))));
  afterEach(() => fs.rmSync(workDir, { recursive: true, force: true }));

  const run = (...blocks: string[]) =>
    runChain(
      blocks.flatMap((text, i) => extractBlocks(`doc${i}.md`, ['```sh', text, '```'].join('\n'))),
      { workDir, cwd: workDir, env: { PATH: process.env.PATH ?? '/usr/bin:/bin', API: api }, timeoutMs: 20_000 },
    );

  it('passes true claims; variables carry from block to block', async () => {
    const result = await run(
      'ID=$(curl -s $API/ok | jq -r .id)',
      'echo "$ID"\n# ok-…',
      'curl -s $API/missing | jq -r .error_code\n# THING_NOT_FOUND',
      "curl -s -o /dev/null -w '%{http_code}\\n' $API/missing\n# 404",
    );
    expect(result.failures).toEqual([]);
    expect(result.groupsRun).toBe(4);
  });

  it('fails a claim that differs, naming the doc, the command, the claim and the output', async () => {
    const result = await run('curl -s $API/ok | jq -c .\n# {"id":"ok-1","n":3}');
    expect(result.failures).toHaveLength(1);
    expect(result.failures[0]).toContain('doc0.md:2 (sh block 1');
    expect(result.failures[0]).toContain('curl -s $API/ok | jq -c .');
    expect(result.failures[0]).toContain('{"id":"ok-1","n":3}');
    expect(result.failures[0]).toContain('{"id":"ok-1","n":2}');
  });

  it('fails a non-2xx answer the claim does not show, even when the printed output matches', async () => {
    const result = await run('curl -s $API/missing | jq -r .success\n# false');
    expect(result.failures).toHaveLength(1);
    expect(result.failures[0]).toMatch(/not 2xx[\s\S]*404 THING_NOT_FOUND/);
  });

  it('fails output nobody claimed', async () => {
    const result = await run('curl -s $API/ok | jq -r .id');
    expect(result.failures[0]).toContain('expected:\n    (nothing)');
  });

  it('stops the chain at a command that fails, and says which', async () => {
    const result = await run('X=$(false | cat)', 'echo never\n# never');
    expect(result.groupsRun).toBe(1);
    expect(result.failures).toHaveLength(1);
    expect(result.failures[0]).toContain('the shell stopped here (exit 1)');
  });
});
