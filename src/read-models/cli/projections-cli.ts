import 'reflect-metadata';
import { ALL_PROJECTIONS } from '../../../projections';
import { openEventStore } from '../../event-store/open-event-store';
import { ConfigError, loadConfig } from '../../platform/config/config';
import { makeDataDirPrivate } from '../../platform/database/private-data-dir';
import { openPlatformDatabase } from '../../platform/database/platform-database';
import type { Projection } from '../projection';
import { generationStorage } from '../generation-storage';
import { ReadModelRegistry } from '../read-model-registry';
import { rebuild } from '../rebuild';
import { readModelStatus } from '../status';
import { verify } from '../verify';

const USAGE = `usage: npm run projections -- <command> [--json]
  status            every read model: version, generation, position, lag
  rebuild <name>    build <name> again from the log beside the live one, then switch to it
  verify <name>     replay <name> into scratch tables and list every row that differs from live
                    (exit code 1 when anything differs)`;

/** Exit codes: 0 ok, 1 verify found differences, 2 usage or runtime error. */
export async function runCli(argv: string[], projections: Projection[] = ALL_PROJECTIONS, out: { write(text: string): unknown } = process.stdout): Promise<number> {
  const json = argv.includes('--json');
  const [command, name] = argv.filter((a) => a !== '--json');
  if (!command || !['status', 'rebuild', 'verify'].includes(command) || (command !== 'status' && !name)) {
    out.write(`${USAGE}\n`);
    return 2;
  }
  const projection = name ? projections.find((p) => p.name === name) : undefined;
  if (name && !projection) {
    out.write(`no read model named ${name}; known: ${projections.map((p) => p.name).join(', ') || '(none)'}\n`);
    return 2;
  }
  const config = loadConfig();
  // a rebuild writes new generation files: private like the rest of the data
  makeDataDirPrivate(config.dataDir);
  const store = await openEventStore(config);
  const platform = await openPlatformDatabase(config.dataDir, config.databaseUrl);
  const registry = new ReadModelRegistry(platform, generationStorage(config));
  const print = (value: unknown, text: string) => out.write(json ? `${JSON.stringify(value, null, 2)}\n` : text);
  try {
    if (command === 'status') {
      const rows = await readModelStatus(projections, store, registry);
      const lines = rows.map((r) => `${r.name.padEnd(24)} v${String(r.version).padEnd(4)} g${String(r.generation).padEnd(4)} ${r.status.padEnd(12)} ${r.current ? 'current' : 'old    '} lag ${String(r.lagEvents ?? '?').padStart(8)}  ${r.position}`);
      print(rows, `${['name'.padEnd(24), 'ver  ', 'gen  ', 'status      ', 'code   ', 'lag events ', ' position'].join(' ')}\n${lines.join('\n')}\n`);
      return 0;
    }
    if (command === 'rebuild') {
      const report = await rebuild(projection!, store, registry);
      print(report, `rebuilt ${report.name} v${report.version} into generation ${report.generation}: ${report.events} events in ${(report.ms / 1000).toFixed(2)} s (${Math.round(report.events / (report.ms / 1000))} events/s); it is now active\n`);
      return 0;
    }
    const report = await verify(projection!, store, registry);
    const lines = report.tables.map((t) => {
      const head = `${t.table}: live ${t.liveRows} rows, replay ${t.replayRows}; missing ${t.missing}, extra ${t.extra}, changed ${t.changed}`;
      return [head, ...t.examples.map((e) => `  ${e.kind} ${JSON.stringify(e.key)}: live=${JSON.stringify(e.live ?? null)} replay=${JSON.stringify(e.replay ?? null)}`)].join('\n');
    });
    print(report, `${report.name} generation ${report.generation} at ${report.position}\n${lines.join('\n')}\n${report.differences === 0 ? 'OK: the read model equals a fresh replay' : `DIFFERENT: ${report.differences} rows differ`}\n`);
    return report.differences === 0 ? 0 : 1;
  } finally {
    await store.close();
    await platform.destroy();
  }
}

if (require.main === module) {
  runCli(process.argv.slice(2)).then(
    (code) => process.exit(code),
    (error) => {
      process.stderr.write(`${error instanceof ConfigError ? error.message : error instanceof Error ? error.stack : String(error)}\n`);
      process.exit(2);
    },
  );
}
