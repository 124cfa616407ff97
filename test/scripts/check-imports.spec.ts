import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const SCRIPT = path.resolve(__dirname, '../../scripts/check-imports.js');

/** Writes a tree of files (path -> contents) into a fresh directory and runs the check on it. */
function checkTree(files: Record<string, string>) {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'parley-imports-'));
  try {
    for (const [file, text] of Object.entries(files)) {
      fs.mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
      fs.writeFileSync(path.join(root, file), text);
    }
    const run = spawnSync(process.execPath, [SCRIPT, '--root', root], { encoding: 'utf8', timeout: 110_000 });
    return { status: run.status, out: run.stdout + run.stderr };
  } finally {
    fs.rmSync(root, { recursive: true, force: true });
  }
}

const clean = {
  'src/platform/clock.ts': 'export const now = () => 0;\n',
  'src/platform/auth/key-lookup.ts': "import { now } from '../clock';\nexport const lookup = now;\n",
  'src/accounts/key-lookup.ts': "import { lookup } from '../platform/auth/key-lookup';\nexport const k = lookup;\n",
  'src/accounts/key.events.ts': 'export type KeyIssued = { keyId: string };\n',
  'projections/keys/queries.ts':
    "import type { KeyIssued } from '../../src/accounts/key.events';\nimport { now } from '../../src/platform/clock';\nexport const q = (e: KeyIssued) => [e, now];\n",
  'projections/keys/keys.entities.ts': 'export class KeyRow {}\n',
  'src/agents/agents.ts': "import { q } from '../../projections/keys/queries';\nexport const a = q;\n",
  // each layer on the ones below it
  'src/event-store/port.ts': "import { now } from '../platform/clock';\nexport const read = now;\n",
  'src/commands/handle.ts': "import { read } from '../event-store/port';\nexport const handle = read;\n",
  'projections/index.ts': "import { q } from './keys/queries';\nexport const ALL = [q];\n",
  'src/read-models/runner.ts':
    "import { handle } from '../commands/handle';\nimport { ALL } from '../../projections/index';\nexport const run = [handle, ALL];\n",
  'src/process-managers/timers.ts': "import { run } from '../read-models/runner';\nexport const timers = run;\n",
  'src/operations/health.ts': "import { timers } from '../process-managers/timers';\nexport const health = timers;\n",
  // the composition root and its command-line tools may import anything
  'src/app.module.ts':
    "import { a } from './agents/agents';\nimport { health } from './operations/health';\nexport const app = [a, health];\n",
  'src/cli/tool.ts':
    "import { app } from '../app.module';\nimport { KeyRow } from '../../projections/keys/keys.entities';\nexport const tool = [app, KeyRow];\n",
};

describe('scripts/check-imports.js', () => {
  it('passes a tree that keeps the layer rules', () => {
    const { status, out } = checkTree(clean);
    expect(out).toContain('no import loops, no layer violations and no contexts importing each other');
    expect(status).toBe(0);
  });

  it('fails when a file under src/platform imports a context', () => {
    const { status, out } = checkTree({
      ...clean,
      'src/platform/auth/key.guard.ts': "import { k } from '../../accounts/key-lookup';\nexport const g = k;\n",
    });
    expect(out).toContain('LAYER src/platform/auth/key.guard.ts imports src/accounts/key-lookup.ts');
    expect(status).toBe(1);
  });

  it('fails when src/platform imports a projection, even for a type', () => {
    const { status, out } = checkTree({
      ...clean,
      'src/platform/rows.ts':
        "import type { KeyRow } from '../../projections/keys/keys.entities';\nexport type R = KeyRow;\n",
    });
    expect(out).toContain('LAYER src/platform/rows.ts imports projections/keys/keys.entities.ts');
    expect(status).toBe(1);
  });

  it("fails when a context imports a projection's entities instead of its queries", () => {
    const { status, out } = checkTree({
      ...clean,
      'src/agents/rows.ts':
        "import { KeyRow } from '../../projections/keys/keys.entities';\nexport const r = KeyRow;\n",
    });
    expect(out).toContain('LAYER src/agents/rows.ts imports projections/keys/keys.entities.ts');
    expect(status).toBe(1);
  });

  it('fails when a layer imports upward: the event store a context, read-models the process managers', () => {
    const { status, out } = checkTree({
      ...clean,
      'src/event-store/upcasters.ts': "import { k } from '../accounts/key-lookup';\nexport const u = [k];\n",
      'src/read-models/module.ts': "import { timers } from '../process-managers/timers';\nexport const m = timers;\n",
      'src/commands/cached.ts': "import { run } from '../read-models/runner';\nexport const c = run;\n",
      'src/process-managers/binding.ts': "import { a } from '../agents/agents';\nexport const b = a;\n",
    });
    expect(out).toContain('LAYER src/event-store/upcasters.ts imports src/accounts/key-lookup.ts');
    expect(out).toContain('LAYER src/read-models/module.ts imports src/process-managers/timers.ts');
    expect(out).toContain('LAYER src/commands/cached.ts imports src/read-models/runner.ts');
    expect(out).toContain('LAYER src/process-managers/binding.ts imports src/agents/agents.ts');
    expect(out).toContain('4 layer violation(s)');
    expect(status).toBe(1);
  });

  it('fails when read-models imports a projection other than the catalogue, or a layer the composition root', () => {
    const { status, out } = checkTree({
      ...clean,
      'src/read-models/rows.ts':
        "import { KeyRow } from '../../projections/keys/keys.entities';\nexport const r = KeyRow;\n",
      'src/read-models/cli.ts': "import { app } from '../app.module';\nexport const cli = app;\n",
    });
    expect(out).toContain('LAYER src/read-models/rows.ts imports projections/keys/keys.entities.ts');
    expect(out).toContain('LAYER src/read-models/cli.ts imports src/app.module.ts');
    expect(status).toBe(1);
  });

  it('fails when a context imports the composition root or a command-line tool', () => {
    const { status, out } = checkTree({
      ...clean,
      'src/seed/seed.ts':
        "import { app } from '../app.module';\nimport { tool } from '../cli/tool';\nexport const s = [app, tool];\n",
    });
    expect(out).toContain('LAYER src/seed/seed.ts imports src/app.module.ts');
    expect(out).toContain('LAYER src/seed/seed.ts imports src/cli/tool.ts');
    expect(status).toBe(1);
  });

  it('lets a spec under src/platform wire parts of other layers', () => {
    const { status } = checkTree({
      ...clean,
      'src/platform/auth/key-lookup.spec.ts': "import { k } from '../../accounts/key-lookup';\nexport const s = k;\n",
    });
    expect(status).toBe(0);
  });

  it('fails when a projection imports a context beyond its events', () => {
    const { status, out } = checkTree({
      ...clean,
      'projections/keys/keys.projection.ts':
        "import { k } from '../../src/accounts/key-lookup';\nexport const p = k;\n",
    });
    expect(out).toContain('LAYER projections/keys/keys.projection.ts imports src/accounts/key-lookup.ts');
    expect(status).toBe(1);
  });

  it('fails when two contexts import each other, whichever files do it', () => {
    // one way is fine
    expect(
      checkTree({
        ...clean,
        'src/agents/keys.ts': "import { k } from '../accounts/key-lookup';\nexport const keys = k;\n",
      }).status,
    ).toBe(0);
    const { status, out } = checkTree({
      ...clean,
      'src/agents/keys.ts': "import { k } from '../accounts/key-lookup';\nexport const keys = k;\n",
      'src/accounts/owners.ts': "import { a } from '../agents/agents';\nexport const owners = a;\n",
    });
    expect(out).toContain('CONTEXTS accounts and agents import each other');
    expect(status).toBe(1);
  });
});
