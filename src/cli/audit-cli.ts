import 'reflect-metadata';
import { openSealedStore } from './open-sealed-store';
import fs from 'node:fs';
import readline from 'node:readline';
import { DEFAULT_DATA_ACCESS, type DataAccessConfig } from '../accounts/data-access';
import { accountStream } from '../accounts/account.events';
import type { AgentEvent } from '../agents/agent.events';
import { agentStream } from '../agents/agent.events';
import type { EventStore } from '../event-store/event-store.port';
import type { Position } from '../event-store/position';
import { loadConfig } from '../platform/config/config';
import { agentRef, tryParseAgentId } from '../platform/ids/prefixed-ids';
import { chainLine, GENESIS, verifyChain } from '../audit-export/digest-chain';
import { isoInstant } from '../audit-export/export-query';
import { projectEvents } from '../audit-export/project-events';

const USAGE = `usage: npm run audit -- export --project <id> [--from <ISO time>] [--to <ISO time>] --out <file>
       npm run audit -- verify <file>
  export   every stored event of the project's conversations with occurred_at in [from, to), in log
           order, one JSON line each, with its log position and a running sha256 digest
  verify   checks a file's digest chain, header and closing line (exit code 1 when it fails)`;

/** How many log events the export reads per page: the file is written as it is read. */
const SCAN_PAGE = 50_000;

type Out = { write(text: string): unknown };

/** Exit codes: 0 ok, 1 verification failed, 2 usage or runtime error. */
export async function runAuditCli(argv: string[], out: Out = process.stdout): Promise<number> {
  const [command, ...rest] = argv;
  if (command === 'verify' && rest.length === 1) return verify(rest[0], out);
  const options = command === 'export' ? flags(rest) : null;
  if (!options || !options.project || !options.out) {
    out.write(`${USAGE}\n`);
    return 2;
  }
  const agentId = tryParseAgentId(options.project);
  let from: string | undefined;
  let to: string | undefined;
  try {
    from = isoInstant('--from', options.from);
    to = isoInstant('--to', options.to);
  } catch (error) {
    out.write(`${(error as Error).message}\n`);
    return 2;
  }
  if (agentId === null) {
    out.write(`not a project id: ${options.project}\n`);
    return 2;
  }
  const store = await openSealedStore(loadConfig());
  try {
    const config = await dataAccessOf(store, agentId);
    if (!config) {
      out.write(`no project ${options.project}\n`);
      return 2;
    }
    const events = await exportTo(store, agentId, config, { from, to }, options.out);
    out.write(`wrote ${events} event(s) of project ${agentId} to ${options.out}\n`);
    return 0;
  } finally {
    await store.close();
  }
}

function flags(args: string[]): Record<string, string> | null {
  const result: Record<string, string> = {};
  for (let i = 0; i < args.length; i += 2) {
    const [name, value] = [args[i], args[i + 1]];
    if (!['--project', '--from', '--to', '--out'].includes(name) || value === undefined) return null;
    result[name.slice(2)] = value;
  }
  return result;
}

/**
 * The project's data access as the API applies it to a key with `conversations` (contract §4):
 * the file holds what the API would show, no more. Null when the project never existed.
 */
async function dataAccessOf(store: EventStore, agentId: string): Promise<DataAccessConfig | null> {
  const [created] = await store.readStream(agentStream(agentId), { maxCount: 1 });
  const agent = created as unknown as AgentEvent | undefined;
  if (agent?.type !== 'AgentCreated') return null;
  let config = DEFAULT_DATA_ACCESS;
  for (const event of await store.readStream(accountStream(agent.data.accountId))) {
    const data = event.data as { agentId?: string; responseMetrics?: string[]; showTranscripts?: boolean };
    if (event.type === 'DataAccessConfigured' && data.agentId === agentId)
      config = { responseMetrics: data.responseMetrics ?? [], showTranscripts: Boolean(data.showTranscripts) };
  }
  return config;
}

async function exportTo(
  store: EventStore,
  agentId: string,
  config: DataAccessConfig,
  window: { from?: string; to?: string },
  file: string,
): Promise<number> {
  const stream = fs.createWriteStream(file, { mode: 0o600 });
  let previous = GENESIS;
  const write = async (value: unknown) => {
    const { line, digest } = chainLine(previous, JSON.stringify(value));
    previous = digest;
    // wait for the file when it lags: the export never holds more than the stream's buffer
    if (!stream.write(`${line}\n`)) await new Promise<void>((resolve) => stream.once('drain', () => resolve()));
  };
  await write({ header: { project: agentRef(agentId), from: window.from ?? null, to: window.to ?? null } });
  const access = { permissions: ['conversations' as const], config };
  let after: Position | undefined;
  let count = 0;
  for (;;) {
    const page = projectEvents(store, agentId, access, window, after, {
      maxEvents: Number.MAX_SAFE_INTEGER,
      maxScanned: SCAN_PAGE,
    });
    let next = await page.next();
    for (; !next.done; next = await page.next()) {
      await write(next.value);
      count++;
    }
    if (next.value.next === null) break;
    after = next.value.next;
  }
  await write({ end: true, count });
  await new Promise<void>((resolve, reject) =>
    stream.end((error?: Error | null) => (error ? reject(error) : resolve())),
  );
  return count;
}

async function verify(file: string, out: Out): Promise<number> {
  if (!fs.existsSync(file)) {
    out.write(`no such file: ${file}\n`);
    return 2;
  }
  const lines = readline.createInterface({ input: fs.createReadStream(file), crlfDelay: Infinity });
  const verdict = await verifyChain(lines);
  if (verdict.ok) {
    out.write(`ok: ${verdict.events} event(s), ${verdict.lines} line(s), the digest chain holds\n`);
    return 0;
  }
  out.write(`FAILED at line ${verdict.line}: ${verdict.reason}\n`);
  return 1;
}

if (require.main === module) {
  runAuditCli(process.argv.slice(2)).then(
    (code) => process.exit(code),
    (error: unknown) => {
      process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
      process.exit(2);
    },
  );
}
