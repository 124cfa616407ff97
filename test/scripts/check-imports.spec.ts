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
  'projections/keys/queries.ts': "import { k } from '../../src/accounts/key-lookup';\nexport const q = k;\n",
  'projections/keys/keys.entities.ts': 'export class KeyRow {}\n',
  'src/agents/agents.ts': "import { q } from '../../projections/keys/queries';\nexport const a = q;\n",
};

describe('scripts/check-imports.js', () => {
  it('passes a tree that keeps the layer rules', () => {
    const { status, out } = checkTree(clean);
    expect(out).toContain('no import loops and no layer violations');
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

  it('lets a spec under src/platform wire parts of other layers', () => {
    const { status } = checkTree({
      ...clean,
      'src/platform/auth/key-lookup.spec.ts': "import { k } from '../../accounts/key-lookup';\nexport const s = k;\n",
    });
    expect(status).toBe(0);
  });
});
