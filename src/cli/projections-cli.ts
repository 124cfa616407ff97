import 'reflect-metadata';
import { openSealedStore } from './open-sealed-store';
import { ALL_PROJECTIONS } from '../../projections';
import { ConfigError, loadConfig } from '../platform/config/config';
import { makeDataDirPrivate } from '../platform/database/private-data-dir';
import { openAppDatabase } from '../app.database';
import type { Projection } from '../read-models/projection';
import { generationStorage } from '../read-models/generations/generation-storage';
import { ReadModelRegistry } from '../read-models/generations/read-model-registry';
import { rebuild } from '../read-models/generations/rebuild';
import { readModelStatus } from '../read-models/status';
import { verify } from '../read-models/generations/verify';
import { retryProjectionDeadLetters } from '../read-models/failures/retry-dead-letters';
import { rearmDeadTimers } from '../process-managers/rearm-dead-timers';
import { isPosition, type Position } from '../event-store/position';

const COMMANDS = ['status', 'rebuild', 'verify', 'dead-letters', 'retry'];

const USAGE = `usage: npm run projections -- <command> [--json]
  status            every read model: version, generation, position, lag
  rebuild <name>    build <name> again from the log beside the live one, then switch to it
  verify <name>     replay <name> into scratch tables and list every row that differs from live
                    (exit code 1 when anything differs, or <name> has open dead letters)
  dead-letters [name]
                    the events read models and process managers, and the timers, set aside (open ones)
  retry <name> <position>|--all
                    apply a read model's dead letters again (exit code 1 when any still fails);
                    for a process manager, ask the running app to handle them again
  retry <timer-owner> <timer-id>|--all
                    re-arm dead timers: the running app fires them again`;

/** Exit codes: 0 ok, 1 verify found differences, 2 usage or runtime error. */
export async function runCli(
  argv: string[],
  projections: Projection[] = ALL_PROJECTIONS,
  out: { write(text: string): unknown } = process.stdout,
): Promise<number> {
  const json = argv.includes('--json');
  const all = argv.includes('--all');
  const [command, name, at] = argv.filter((a) => a !== '--json' && a !== '--all');
  const needsName = !['status', 'dead-letters'].includes(command);
  // a timer's key is its id; every other dead letter's is a log position (checked below)
  const badRetry = command === 'retry' && (all ? at !== undefined : at === undefined);
  if (!command || !COMMANDS.includes(command) || (needsName && !name) || badRetry) {
    out.write(`${USAGE}\n`);
    return 2;
  }
  const projection = name ? projections.find((p) => p.name === name) : undefined;
  // dead letters and retries also name process managers, which only the running app knows
  if (name && !projection && !['dead-letters', 'retry'].includes(command)) {
    out.write(`no read model named ${name}; known: ${projections.map((p) => p.name).join(', ') || '(none)'}\n`);
    return 2;
  }
  const config = loadConfig();
  // a rebuild writes new generation files: private like the rest of the data
  makeDataDirPrivate(config.dataDir);
  const store = await openSealedStore(config);
  const platform = await openAppDatabase(config.dataDir, config.databaseUrl);
  const registry = new ReadModelRegistry(platform, generationStorage(config));
  const print = (value: unknown, text: string) => out.write(json ? `${JSON.stringify(value, null, 2)}\n` : text);
  try {
    if (command === 'status') {
      const rows = await readModelStatus(projections, store, registry);
      const lines = rows.map(
        (r) =>
          `${r.name.padEnd(24)} v${String(r.version).padEnd(4)} g${String(r.generation).padEnd(4)} ${r.status.padEnd(12)} ${r.current ? 'current' : 'old    '} lag ${String(r.lagEvents ?? '?').padStart(8)}  ${r.position}`,
      );
      print(
        rows,
        `${['name'.padEnd(24), 'ver  ', 'gen  ', 'status      ', 'code   ', 'lag events ', ' position'].join(' ')}\n${lines.join('\n')}\n`,
      );
      return 0;
    }
    if (command === 'rebuild') {
      const report = await rebuild(projection!, store, registry);
      const dead =
        report.deadLettered > 0
          ? `; ${report.deadLettered} event(s) could not be applied and were dead-lettered (see dead-letters ${report.name})`
          : '';
      print(
        report,
        `rebuilt ${report.name} v${report.version} into generation ${report.generation}: ${report.events} events in ${(report.ms / 1000).toFixed(2)} s (${Math.round(report.events / (report.ms / 1000))} events/s); it is now active${dead}\n`,
      );
      return 0;
    }
    if (command === 'dead-letters') {
      const letters = await registry.deadLetters.list({ name });
      const lines = letters.map(
        (l) =>
          `${`${l.kind}:${l.name}`.padEnd(32)} ${l.position} ${l.kind === 'timer' ? '' : `${l.eventType.padEnd(24)} ${l.streamId} `}attempts ${l.attempts} since ${l.firstFailedAt}${l.status === 'retry' ? ' (retry asked)' : ''}\n    ${l.error}`,
      );
      print(
        letters,
        letters.length === 0
          ? `no open dead letters${name ? ` for ${name}` : ''}\n`
          : `${lines.join('\n')}\n${letters.length} open\n`,
      );
      return 0;
    }
    if (command === 'retry') {
      if (!projection) {
        // a name with timer dead letters (of any status) is a timer owner: its keys are timer ids
        const timerLetters = await registry.deadLetters.list({ kind: 'timer', name, status: 'all' });
        if (timerLetters.length > 0) {
          const rearmed = await rearmDeadTimers(platform, name, all ? undefined : at);
          print(
            { name, rearmed },
            `re-armed ${rearmed} dead timer(s) of ${name}: the running app fires them within a few seconds; see \`dead-letters ${name}\`\n`,
          );
          return rearmed > 0 ? 0 : 1;
        }
      }
      if (!all && !isPosition(at)) {
        out.write(`${USAGE}\n`);
        return 2;
      }
      const position = all ? undefined : (at as Position);
      if (!projection) {
        const asked = await registry.deadLetters.requestRetry('process-manager', name, position);
        print(
          { name, requested: asked },
          `asked the running app to retry ${asked} dead letter(s) of process manager ${name}; see \`dead-letters ${name}\` in a few seconds\n`,
        );
        return asked > 0 ? 0 : 1;
      }
      const report = await retryProjectionDeadLetters(projection, store, registry, position);
      const failed = report.failed.map((f) => `  still failing at ${f.position} (${f.eventType}): ${f.retryError}`);
      print(
        report,
        `${name}: ${report.resolved.length} dead letter(s) applied and resolved, ${report.failed.length} still failing\n${failed.map((l) => `${l}\n`).join('')}`,
      );
      return report.failed.length === 0 ? 0 : 1;
    }
    const report = await verify(projection!, store, registry);
    const lines = report.tables.map((t) => {
      const head = `${t.table}: live ${t.liveRows} rows, replay ${t.replayRows}; missing ${t.missing}, extra ${t.extra}, changed ${t.changed}`;
      return [
        head,
        ...t.examples.map(
          (e) =>
            `  ${e.kind} ${JSON.stringify(e.key)}: live=${JSON.stringify(e.live ?? null)} replay=${JSON.stringify(e.replay ?? null)}`,
        ),
      ].join('\n');
    });
    // a dead-lettered event is a gap in the read model even where a replay with today's handler skips it too
    const gaps = await registry.deadLetters.list({ kind: 'projection', name: projection!.name });
    const gapLines = gaps
      .map((g) => `dead letter at ${g.position} (${g.eventType}, stream ${g.streamId}): not applied: ${g.error}\n`)
      .join('');
    const verdict =
      report.differences === 0
        ? 'OK: the read model equals a fresh replay'
        : `DIFFERENT: ${report.differences} rows differ`;
    print(
      { ...report, deadLetters: gaps },
      `${report.name} generation ${report.generation} at ${report.position}\n${lines.join('\n')}\n${gapLines}${verdict}${gaps.length > 0 ? `; ${gaps.length} dead-lettered event(s) missing` : ''}\n`,
    );
    return report.differences === 0 && gaps.length === 0 ? 0 : 1;
  } finally {
    await store.close();
    await platform.destroy();
  }
}

if (require.main === module) {
  runCli(process.argv.slice(2)).then(
    (code) => process.exit(code),
    (error) => {
      process.stderr.write(
        `${error instanceof ConfigError ? error.message : error instanceof Error ? error.stack : String(error)}\n`,
      );
      process.exit(2);
    },
  );
}
