/**
 * The app as a server process of its own for the edge floods (cases/edge-flood.ts): what a flood
 * does to the server's event loop and file descriptors must not be shared with the clients that
 * measure it. Seeds two tenants (A floods, B is measured; each an account and a key) and an agent
 * of B's, prints one JSON line (FloodServer), and closes the app when its stdin ends.
 *
 * argv: dataDir. The edge settings of contract §21, when set in the environment, pass through
 * (compare a budget's values on one build); everything else is the product's default, the key
 * rate limit included.
 */
import 'reflect-metadata';
import { seedAccount, startBenchApp } from './http-app';

/** What the server prints: first its address and tenants, then a line for each collection asked for. */
export type FloodServerLine = FloodServer | { event: 'collected' };

export interface FloodServer {
  url: string;
  pid: number;
  a: { accountId: string; key: string };
  b: { accountId: string; key: string; agentId: string };
}

const EDGE_SETTINGS = [
  'HTTP_HEADERS_TIMEOUT_S',
  'HTTP_REQUEST_TIMEOUT_S',
  'HTTP_KEEPALIVE_TIMEOUT_S',
  'HTTP_MAX_CONNECTIONS_PER_ADDRESS',
  'HTTP_MAX_CONNECTIONS',
  'BODY_BYTES_PER_S',
  'BODY_BYTES_BURST',
  'TRUSTED_PROXIES',
];

/** An app that has not closed in this long is killed by its parent anyway; exit rather than linger. */
const CLOSE_DEADLINE_MS = 20_000;

async function main(): Promise<void> {
  // the product's defaults (an empty value is the default), not the throughput cases' limits-off
  const env: Record<string, string> = { RATE_LIMIT_PER_KEY: '' };
  for (const name of EDGE_SETTINGS) env[name] = process.env[name] ?? '';
  const app = await startBenchApp(process.argv[2], env);
  const a = await seedAccount(app);
  const b = await seedAccount(app);
  const agent = await app.call<{ agentId: string }>(
    'POST',
    `/v1/accounts/${b.accountId}/agents`,
    { 'x-api-key': b.key },
    {
      name: 'tenant b',
      responseSettings: { greeting: 'Hello from tenant B.' },
    },
  );
  await app.settled();
  let closing = false;
  const close = () => {
    if (closing) return;
    closing = true;
    setTimeout(() => process.exit(1), CLOSE_DEADLINE_MS).unref();
    app.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  let pending = '';
  process.stdin.on('data', (chunk: Buffer) => {
    pending += chunk.toString();
    for (let at = pending.indexOf('\n'); at !== -1; at = pending.indexOf('\n')) {
      const line = pending.slice(0, at).trim();
      pending = pending.slice(at + 1);
      if (line !== 'gc') continue;
      (globalThis as { gc?: () => void }).gc?.();
      process.stdout.write(`${JSON.stringify({ event: 'collected' })}\n`);
    }
  });
  process.stdin.on('end', close);
  process.on('SIGTERM', close);
  const ready: FloodServer = { url: app.url, pid: process.pid, a, b: { ...b, agentId: agent.agentId } };
  process.stdout.write(`${JSON.stringify(ready)}\n`);
}

main().catch((error) => {
  process.stderr.write(`flood server failed: ${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
