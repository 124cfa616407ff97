/**
 * A diagnostic, not a case: the event store's commit pipeline alone, the way the webhook uses it.
 * Deliveries (one-event appends to fresh streams) at a fixed rate, open loop, each followed once
 * it is durable by a binding (three events on a conversation's stream); each latency is timed from
 * the delivery's due time. Without HTTP, read models or process managers, what is left is waiting
 * for commits: compare two builds by running each from its own dist/ in alternation.
 *
 * node --max-semi-space-size=64 dist/bench/lib/commit-pipeline.js [rate=500] [seconds=10] [label]
 * Prints one line: latency percentiles per kind (ms), the event loop's delay, CPU per delivery.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { SqliteEventStore } from '../../src/event-store/sqlite/sqlite-event-store';
import { uuidv7 } from '../../src/platform/ids/ids';
import { cpuDuring } from './thread-cpu';

const rate = Number(process.argv[2] ?? 500);
const seconds = Number(process.argv[3] ?? 10);
const label = process.argv[4] ?? '';
const now = () => performance.now();
const at = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))];
const summary = (values: number[]) => {
  const s = [...values].sort((a, b) => a - b);
  return `p50 ${at(s, 0.5).toFixed(1)} p90 ${at(s, 0.9).toFixed(1)} p99 ${at(s, 0.99).toFixed(1)} max ${s[s.length - 1].toFixed(1)}`;
};

async function main(): Promise<void> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'commit-pipeline-'));
  const store = await SqliteEventStore.open({ file: path.join(dir, 'events.sqlite'), sync: 'full' });
  const metadata = {
    schemaVersion: 1,
    actor: 'bench',
    correlationId: 'c',
    causationId: null,
    occurredAt: new Date().toISOString(),
  };
  const data = { eventId: 'bench', body: 'eyJpZCI6ImJlbmNoIiwic3RhdHVzIjoicGFpZCJ9', bodySha256: 'a'.repeat(64) };
  // past the store's first 256 commits: the checkpointer thread runs, as in a server under load
  for (let i = 0; i < 300; i++)
    await store.append(`warm-${i}`, [{ id: uuidv7(), type: 'Warm', data, metadata }], 'no_stream');
  const total = Math.round(rate * seconds);
  const delivery: number[] = [];
  const binding: number[] = [];
  const chain: number[] = [];
  const warmBatches = store.commitStats.commits;
  const loop = monitorEventLoopDelay({ resolution: 1 });
  loop.enable();
  const { mainMs, othersMs } = await cpuDuring(
    () =>
      new Promise<void>((resolve, reject) => {
        const startedAt = now() + 20;
        let sent = 0;
        let done = 0;
        const one = async (n: number, due: number) => {
          await store.append(`external-${n}`, [{ id: uuidv7(), type: 'Delivered', data, metadata }], 'no_stream');
          const durable = now();
          delivery.push(durable - due);
          const turn = { ...data, text: 'x'.repeat(600) };
          await store.append(
            `conversation-${n}`,
            [0, 1, 2].map(() => ({ id: uuidv7(), type: 'Bound', data: turn, metadata })),
            'no_stream',
          );
          binding.push(now() - durable);
          chain.push(now() - due);
          if (++done === total) resolve();
        };
        const tick = () => {
          const t = now();
          for (; sent < total && startedAt + (sent * 1000) / rate <= t; sent++)
            one(sent, startedAt + (sent * 1000) / rate).catch(reject);
          if (sent < total) setTimeout(tick, Math.max(0, startedAt + (sent * 1000) / rate - now()));
        };
        setTimeout(tick, 20);
      }),
  );
  loop.disable();
  const cpu =
    mainMs === null
      ? 'CPU n/a'
      : `CPU per delivery: main ${((mainMs * 1000) / total).toFixed(0)} µs, other threads ${((othersMs! * 1000) / total).toFixed(0)} µs`;
  const batches = store.commitStats.commits - warmBatches;
  process.stdout.write(
    `${label} load ${os.loadavg()[0].toFixed(1)} | delivery ${summary(delivery)} | binding ${summary(binding)} | chain ${summary(chain)} | loop delay p99 ${(loop.percentile(99) / 1e6).toFixed(1)} max ${(loop.max / 1e6).toFixed(1)} | ${cpu} | ${batches} batches\n`,
  );
  await store.close();
  fs.rmSync(dir, { recursive: true, force: true });
}

main().catch((error: unknown) => {
  process.stderr.write(`${String(error)}\n`);
  process.exit(1);
});
