import Database from 'better-sqlite3';
import { Client } from 'pg';
import { runCli } from '../../src/cli/projections-cli';
import { appendCounterEvents, counterProjection } from '../fixtures/counter-projection';
import { ReadSide } from '../fixtures/read-side-harness';
import { describeOnPostgres, type PostgresServer } from '../support/postgres-server';

const NAME = 'counters';

/** Collects what the CLI prints. */
function output() {
  let text = '';
  const out = { write: (chunk: string) => ((text += chunk), true) } as unknown as NodeJS.WriteStream;
  return { out, text: () => text };
}

/** Where the CLI finds the read models (its environment), and a statement run on the live generation 1 behind its back. */
interface Backend {
  env(side: ReadSide): Promise<Record<string, string>>;
  tamper(side: ReadSide, env: Record<string, string>, sql: string): Promise<void>;
}

const sqlite: Backend = {
  env: async () => ({ READ_MODEL_DB: 'sqlite' }),
  tamper: async (side, _env, sql) => {
    const db = new Database(`${side.dir}/read-models/${NAME}/v1.g1.sqlite`);
    db.prepare(sql).run();
    db.close();
  },
};

let databases = 0;
function postgres(server: () => PostgresServer): Backend {
  return {
    env: async () => ({ READ_MODEL_DB: 'postgres', DATABASE_URL: await server().createDatabase(`cli_${++databases}`) }),
    tamper: async (_side, env, sql) => {
      const client = new Client({ connectionString: env.DATABASE_URL, options: `-c search_path=rm_${NAME}_v1_g1` });
      await client.connect();
      await client.query(sql);
      await client.end();
    },
  };
}

const VARIABLES = ['DATA_DIR', 'READ_MODEL_DB', 'DATABASE_URL'] as const;

function cliSuite(backend: () => Backend) {
  let side: ReadSide;
  let env: Record<string, string>;
  const saved = Object.fromEntries(VARIABLES.map((name) => [name, process.env[name]]));
  const projection = counterProjection();

  beforeEach(async () => {
    side = new ReadSide();
    env = { DATA_DIR: side.dir, ...(await backend().env(side)) };
    delete process.env.DATABASE_URL;
    Object.assign(process.env, env);
  });

  afterEach(async () => {
    for (const name of VARIABLES) {
      if (saved[name] === undefined) delete process.env[name];
      else process.env[name] = saved[name];
    }
    await side.cleanup();
  });

  async function run(argv: string[]) {
    const o = output();
    const code = await runCli(argv, [projection], o.out);
    return { code, text: o.text() };
  }

  it('exits 2 with the usage on bad usage or an unknown read model', async () => {
    for (const argv of [[], ['frobnicate'], ['rebuild'], ['verify'], ['--json']]) {
      const { code, text } = await run(argv);
      expect({ argv, code }).toEqual({ argv, code: 2 });
      expect(text).toMatch(/^usage: npm run projections/);
    }
    for (const command of ['rebuild', 'verify']) {
      const { code, text } = await run([command, 'nope']);
      expect(code).toBe(2);
      expect(text).toContain(`no read model named nope; known: ${NAME}`);
    }
  });

  it('status, rebuild, verify: exit codes and what they print', async () => {
    const store = await side.openStore();
    await appendCounterEvents(store, { events: 400, streams: 4 });

    const before = await run(['status']);
    expect(before.code).toBe(0);
    expect(before.text).toContain(NAME);
    expect(before.text).toContain('never built');

    const rebuilt = await run(['rebuild', NAME]);
    expect(rebuilt.code).toBe(0);
    expect(rebuilt.text).toMatch(
      new RegExp(`^rebuilt ${NAME} v1 into generation 1: 400 events in .* s .*; it is now active\\n$`),
    );

    const after = await run(['status']);
    expect(after.code).toBe(0);
    const line = after.text.split('\n').find((l) => l.startsWith(NAME))!;
    expect(line).toMatch(/v1\s+g1\s+active\s+current\s+lag\s+0\s/);

    const json = await run(['status', '--json']);
    expect(json.code).toBe(0);
    expect(JSON.parse(json.text)).toEqual([
      expect.objectContaining({ name: NAME, version: 1, generation: 1, status: 'active', current: true, lagEvents: 0 }),
    ]);

    const clean = await run(['verify', NAME]);
    expect(clean.code).toBe(0);
    expect(clean.text).toContain(`${NAME} generation 1 at `);
    expect(clean.text).toContain('OK: the read model equals a fresh replay');

    await backend().tamper(side, env, "UPDATE counter SET count = 0 WHERE stream_id = 'counter-1'");
    const dirty = await run(['verify', NAME]);
    expect(dirty.code).toBe(1);
    expect(dirty.text).toContain('counter: live 4 rows, replay 4; missing 0, extra 0, changed 1');
    expect(dirty.text).toContain('changed ["counter-1"]');
    expect(dirty.text).toContain('DIFFERENT: 1 rows differ');

    // A second rebuild replaces generation 1 (no server running, so the old row is retired).
    const again = await run(['rebuild', NAME, '--json']);
    expect(again.code).toBe(0);
    expect(JSON.parse(again.text)).toMatchObject({ name: NAME, version: 1, generation: 2, events: 400 });
    expect((await run(['verify', NAME])).code).toBe(0);
  });
}

describe('projections CLI (runCli) on SQLite generation files', () => cliSuite(() => sqlite));

describeOnPostgres('projections CLI (runCli) on PostgreSQL generation schemas', (server) =>
  cliSuite(() => postgres(server)),
);
