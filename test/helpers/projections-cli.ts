import { CONFIG, type Config } from '../../src/platform/config/config';
import { runCli } from '../../src/cli/projections-cli';
import type { TestApp } from './test-app';

const VARIABLES = ['DATA_DIR', 'READ_MODEL_DB', 'DATABASE_URL'] as const;

/** `npm run projections -- <argv>` as an operator runs it beside the app: the same DATA_DIR and databases. */
export async function projectionsCli(t: TestApp, argv: string[]): Promise<{ code: number; text: string }> {
  const config = t.app.get<symbol, Config>(CONFIG);
  const saved = Object.fromEntries(VARIABLES.map((name) => [name, process.env[name]]));
  Object.assign(process.env, { DATA_DIR: t.dataDir, READ_MODEL_DB: config.readModelDb });
  if (config.databaseUrl) process.env.DATABASE_URL = config.databaseUrl;
  else delete process.env.DATABASE_URL;
  let text = '';
  try {
    const code = await runCli(argv, undefined, { write: (chunk: string) => (text += chunk) });
    return { code, text };
  } finally {
    for (const name of VARIABLES) {
      if (saved[name] === undefined) delete process.env[name];
      else process.env[name] = saved[name];
    }
  }
}
