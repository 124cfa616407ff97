/**
 * One Parley process of the failover case (cases/postgres-failover.ts): the app on loopback over a
 * shared PostgreSQL (the log, the read models, the platform records and the leases), its
 * configuration a JSON object in argv[3] beside its data dir in argv[2]. Prints `{"url","pid"}`
 * once it listens and closes when its stdin ends; the case kills it with SIGKILL.
 */
import 'reflect-metadata';
import { startBenchApp } from './http-app';

export interface FailoverAppLine {
  url: string;
  pid: number;
}

async function main(): Promise<void> {
  const app = await startBenchApp(process.argv[2], JSON.parse(process.argv[3]) as Record<string, string>);
  process.stdin.on('end', () => {
    setTimeout(() => process.exit(1), 10_000).unref();
    app.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  });
  process.stdin.resume();
  const line: FailoverAppLine = { url: app.url, pid: process.pid };
  process.stdout.write(`${JSON.stringify(line)}\n`);
}

main().catch((error) => {
  process.stderr.write(`failover app failed: ${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
