import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import pino from 'pino';
import { createApp } from '../../src/app.factory';
import type { ConversationEvent } from '../../src/conversations/conversation.events';
import { EVENT_STORE, type EventStore, type RecordedEvent } from '../../src/event-store/event-store.port';
import { loadConfig } from '../../src/platform/config/config';
import { uuidv7 } from '../../src/platform/ids/ids';
import { comparePositions } from '../../src/event-store/position';
import { ProcessManagers } from '../../src/process-managers/process-managers';
import { ReadModels } from '../../src/read-models/read-models.service';
import type { BenchCase, Result } from '../lib/case';
import type { BenchContext } from '../lib/context';
import { EchoProbeController } from '../lib/echo-probe.controller';
import { median } from '../lib/measure';
import { profiled } from '../lib/profile';
import { cpuDuring } from '../lib/thread-cpu';
import { describePauses, watchPauses } from '../lib/pause-watch';
import { caughtUp } from '../lib/caught-up';
import type { PacedLoadResult } from '../lib/paced-load';

const CONNECTIONS = 50;

/**
 * The paced series' keep-alive pool. At 500/s a pool of n connections holds every request only
 * while answers take under n / 500 s: with 10 (20 ms, the target itself) a few slow appends filled
 * the pool and the requests due behind them queued in the client, charging its queue to the server
 * (bench/README.md, "Notes moved from code comments"). 50 covers answers up to 100 ms, as a sender
 * sized for this rate would.
 */
const PACED_CONNECTIONS = 50;

interface Cannon {
  average: number;
  total: number;
  non2xx: number;
}

/** The load in its own process (lib/external-event-load.ts): each POST carries the next `bench-<n>` id. */
async function load(
  url: string,
  seconds: number,
  count: number,
  headers: Record<string, string>,
  opts: { start?: number; amount?: number } = {},
): Promise<Cannon> {
  const args = [
    url,
    String(CONNECTIONS),
    String(seconds),
    String(count),
    String(opts.start ?? 0),
    String(opts.amount ?? 0),
    ...headerArgs(headers),
  ];
  const r = await driver<{ requests: { total: number }; activeSeconds: number; non2xx: number }>(
    'external-event-load.js',
    args,
  );
  // autocannon's own average divides by whole seconds: a series cut short by `amount` would read low
  return { average: r.requests.total / r.activeSeconds, total: r.requests.total, non2xx: r.non2xx };
}

/** An open-loop series at a fixed rate (lib/paced-load.ts): latencies from each request's due time. */
function paced(
  url: string,
  rate: number,
  seconds: number,
  connections: number,
  start: number,
  count: number,
  headers: Record<string, string>,
): Promise<PacedLoadResult> {
  return driver<PacedLoadResult>('paced-load.js', [
    url,
    String(rate),
    String(seconds),
    String(connections),
    String(start),
    String(count),
    ...headerArgs(headers),
  ]);
}

const headerArgs = (headers: Record<string, string>) => Object.entries(headers).map(([k, v]) => `${k}=${v}`);

/** Runs a load driver of bench/lib in its own process and parses the one JSON line it prints. */
function driver<T>(file: string, args: string[]): Promise<T> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [path.join(__dirname, '../lib', file), ...args], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    child.stdout.on('data', (chunk) => (out += chunk));
    child.on('error', reject);
    child.on('exit', (code) => {
      try {
        resolve(JSON.parse(out) as T);
      } catch {
        reject(new Error(`${file} exited ${code} without a result`));
      }
    });
  });
}

interface Figures {
  webhook: number[];
  echo: number[];
  deliveryP99: number;
  /** deliveries of the paced series bound before it ended (the bind pacer may hold binding back) */
  deliveryBound: string;
  bindP50: number;
  bindP99: number;
  /** deliveries bound per second while binding a burst's backlog (no intake) */
  drainRate: number | null;
  drained: number;
}

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];

/**
 * External events over HTTP: the real app with an agent in sandbox and `count` conversations, each
 * awaiting its own id (`bench-<n>`, appended straight to the store: the debug chat turns that would
 * create them are measured elsewhere). Throughput: the webhook against a NestJS-Fastify POST echo in
 * the same app, same JSON body size, alternating rounds. Latency: the webhook at a moderate rate
 * (500/s open loop, evenly spaced, up to PACED_CONNECTIONS connections; lib/paced-load.ts). Binding: from the POST to the conversations read model applying the
 * bound state (the Conversations API's view), in process, 4 deliveries in flight.
 */
async function measure(ctx: BenchContext): Promise<Figures> {
  return ctx.shared('external-events', async () => {
    const dir = ctx.file('external-events');
    fs.mkdirSync(dir, { recursive: true });
    const operatorToken = 'bench-operator-token-0123456789';
    const config = loadConfig({
      DATA_DIR: dir,
      OPERATOR_TOKEN: operatorToken,
      RATE_LIMIT_PER_KEY: '0',
      BODY_BYTES_PER_S: '0',
      HTTP_MAX_CONNECTIONS_PER_ADDRESS: '0',
      HTTP_KEEPALIVE_TIMEOUT_S: '72',
      LOG_LEVEL: 'silent',
      READ_YOUR_WRITES_TIMEOUT_MS: '60000',
    });
    const app = await createApp(config, pino({ level: 'silent' }), undefined, [EchoProbeController]);
    await app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = app.getHttpServer().address() as { port: number };
    const url = `http://127.0.0.1:${port}`;
    const call = async (method: string, route: string, headers: Record<string, string>, body?: unknown) => {
      const r = await fetch(`${url}${route}`, {
        method,
        headers: { 'content-type': 'application/json', ...headers },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      const text = await r.text();
      if (!r.ok) throw new Error(`${method} ${route}: ${r.status} ${text}`);
      return text ? JSON.parse(text) : null;
    };
    try {
      const op = { 'x-operator-token': operatorToken };
      const account = await call('POST', '/admin/v1/accounts', op, { name: 'bench', region: 'us' });
      const expiresAt = new Date(Date.now() + 300 * 24 * 3600 * 1000).toISOString();
      const { key } = await call('POST', `/admin/v1/accounts/${account.accountId}/api-keys`, op, {
        name: 'bench',
        agents: 'all',
        permissions: ['agents', 'external_events'],
        expiresAt,
      });
      const h = { 'x-api-key': key };
      const agent = await call('POST', `/v1/accounts/${account.accountId}/agents`, h, {
        name: 'events',
        responseSettings: { greeting: 'Hello!' },
      });
      const branch = await call('POST', `/v1/agents/${agent.agentId}/branches`, h, { branchName: 'events' });
      await call('POST', `/v1/agents/${agent.agentId}/branches/${branch.branchId}/knowledge-base/topics`, h, {
        name: 'event:payment',
        content: 'Your payment is $state.external_events.payment.payload.status.',
        exampleQueries: { queries: ['payment result'] },
        actions: 'set_state key=paid value=yes',
      });
      await call('POST', `/v1/agents/${agent.agentId}/branches/${branch.branchId}/merge`, h, {
        deploymentMessage: 'events',
      });
      const deploymentId: string = (await call('GET', `/v1/agents/${agent.agentId}/deployments/active`, h))
        .activeDeployments.sandbox.id;

      // Every webhook request names an id no earlier request used (a repeat is a cheaper, different
      // workload): each throughput series gets its own share of the ids, the moderate-rate series
      // and the binding probe the last ones.
      const count = ctx.quick ? 40_000 : 300_000;
      const store = app.get<EventStore>(EVENT_STORE);
      const readModels = app.get(ReadModels);
      const accountId = String(account.accountId).replace(/^ws-/, '');
      const agentId = String(agent.agentId).replace(/^PROJECT-/, '');
      ctx.log(`external events: ${count} conversations awaiting an event`);
      const now = new Date().toISOString();
      const meta = { schemaVersion: 1, actor: 'bench', correlationId: 'bench', causationId: null, occurredAt: now };
      for (let i = 0; i < count; i += 500) {
        await Promise.all(
          Array.from({ length: Math.min(500, count - i) }, (_, j) => {
            const id = `bench-${i + j}`;
            const events: ConversationEvent[] = [
              {
                type: 'ConversationStarted',
                data: {
                  conversationId: `EV-${id}`,
                  accountId,
                  agentId,
                  deploymentId,
                  version: 1,
                  environment: 'sandbox',
                  channel: 'CHAT',
                  fromNumber: '',
                  toNumber: '',
                  variantId: '',
                  variantName: '',
                  language: 'en-GB',
                  startedAt: now,
                },
              },
              { type: 'ExternalEventAwaited', data: { name: 'payment', eventId: id } },
            ];
            return store.append(
              `conversation-EV-${id}`,
              events.map((e) => ({ id: uuidv7(), type: e.type, data: e.data, metadata: meta })),
              'no_stream',
            );
          }),
        );
      }
      const seeded = Date.now();
      await caughtUp(readModels, await store.headPosition(), ['external-events', 'conversations']);
      ctx.log(`external events: read models caught up ${Date.now() - seeded} ms after the seeding`);

      const q = new URLSearchParams({
        event_id_location: 'payload',
        event_id_path: 'id',
        account_id: account.accountId,
        project_id: agent.agentId,
      });
      const webhookUrl = `${url}/v1/external-events/webhook?${q}`;
      const seconds = ctx.quick ? 3 : 6;
      const runs = Number(process.env.BENCH_EXTERNAL_EVENTS_ROUNDS ?? (ctx.quick ? 1 : 5));
      // warm-up on the echo only: every webhook request should bind a fresh id
      await load(`${url}/bench/echo`, 1, count, {});
      // Each phase starts with every earlier delivery bound: what one measures is not the last one's backlog.
      // Bound deliveries, as the conversations read model applies them: what a burst left to bind.
      let bound = 0;
      const stopCounting = readModels.onApplied('conversations', (batch: RecordedEvent[]) => {
        for (const e of batch) if (e.type === 'ExternalEventReceived') bound++;
      });
      const drains: Array<{ deliveries: number; ms: number }> = [];
      const drain = async () => {
        const started = Date.now();
        const before = bound;
        // Quiet means every process manager and read model has reached the head: binding a
        // backlog of 50,000 deliveries appends ~250,000 events, whose catch-up in the other read
        // models (on the apply thread, read from the log on this one) would otherwise run into the
        // next series and be measured as its cost.
        let head = await store.headPosition();
        const managers = app.get(ProcessManagers);
        for (;;) {
          while (managers.status().some((m) => comparePositions(m.position, head) < 0))
            await new Promise((r) => setTimeout(r, 20));
          await caughtUp(
            readModels,
            head,
            (await readModels.status()).map((r) => r.name),
          );
          const now = await store.headPosition();
          if (now === head) break;
          head = now;
        }
        const ms = Date.now() - started;
        if (bound > before) ctx.log(`external events: a backlog of ${bound - before} deliveries bound in ${ms} ms`);
        return bound > before ? { deliveries: bound - before, ms } : null;
      };
      const out = { webhook: [] as number[], echo: [] as number[] };
      let used = 0;
      const bindCount = ctx.quick ? 200 : 1000;
      const moderateRate = 500;
      const moderateSeconds = ctx.quick ? 3 : 10;
      const perSeries = Math.floor((count - bindCount - moderateRate * moderateSeconds) / runs);
      const series = {
        echo: () => profiled('external-events.echo', () => load(`${url}/bench/echo`, seconds, count, {})),
        webhook: () =>
          profiled('external-events.webhook', () =>
            load(webhookUrl, seconds, count, h, { start: used, amount: perSeries }),
          ),
      };
      for (let round = 0; round < runs; round++) {
        ctx.log(`external events round ${round + 1}/${runs} (${seconds} s per series, ${CONNECTIONS} connections)`);
        for (const name of (round % 2 === 0 ? ['webhook', 'echo'] : ['echo', 'webhook']) as Array<
          keyof typeof series
        >) {
          // Every series starts with nothing left to bind: a burst's backlog is bound before the next series.
          const backlog = await drain();
          if (backlog) drains.push(backlog);
          const boundBefore = bound;
          const { result: r, mainMs, othersMs } = await cpuDuring(series[name]);
          if (r.non2xx) throw new Error(`non-2xx answers on ${name}: ${r.non2xx}`);
          const heapMb = Math.round(process.memoryUsage().heapUsed / 2 ** 20);
          if (mainMs !== null && r.total > 0)
            ctx.log(
              `external events: ${name} ${Math.round(r.average)} req/s; server CPU per request: main thread ${((mainMs * 1000) / r.total).toFixed(0)} µs, other threads ${((othersMs! * 1000) / r.total).toFixed(0)} µs; ${bound - boundBefore} bound meanwhile; heap ${heapMb} MB after it`,
            );
          if (name === 'webhook') used += r.total;
          out[name].push(r.average);
        }
      }
      await drain();
      const loopDelay = monitorEventLoopDelay({ resolution: 1 });
      loopDelay.enable();
      const stopWatching = watchPauses();
      const boundBeforePaced = bound;
      const {
        result: moderate,
        mainMs: modMain,
        othersMs: modOthers,
      } = await cpuDuring(() =>
        profiled('external-events.delivery', () =>
          paced(webhookUrl, moderateRate, moderateSeconds, PACED_CONNECTIONS, used, count, h),
        ),
      );
      loopDelay.disable();
      const pauses = describePauses(stopWatching());
      // The bind pacer (src/external-events/bind-pacer.ts) may hold binding back for the whole
      // series when the process reads as saturated: the figure then is the intake's alone.
      const pacedBound = bound - boundBeforePaced;
      if (moderate.non2xx || moderate.errors)
        throw new Error(`the paced series had ${moderate.non2xx} non-2xx answers and ${moderate.errors} errors`);
      ctx.log(
        `external events: ${moderateRate}/s for ${moderateSeconds} s (open loop): p50 ${moderate.p50.toFixed(1)} ms, p99 ${moderate.p99.toFixed(1)} ms, max ${moderate.max.toFixed(1)} ms (the sender late by p99 ${moderate.p99QueuedMs.toFixed(1)} ms, max ${moderate.maxQueuedMs.toFixed(1)} ms); event loop delay p99 ${(loopDelay.percentile(99) / 1e6).toFixed(1)} ms, max ${(loopDelay.max / 1e6).toFixed(1)} ms; server CPU main thread ${modMain ?? '?'} ms, other threads ${modOthers ?? '?'} ms; ${pacedBound} of ${moderate.total} bound meanwhile; ${pauses}`,
      );
      used += moderate.total;
      await drain();

      // Binding: POST → the conversations read model has applied the bound state.
      const bindIds = Array.from({ length: bindCount }, (_, i) => `bench-${count - 1 - i}`);
      if (used > count - bindCount)
        throw new Error(`the webhook series used ${used} of ${count} ids: the binding probe has none left`);
      const waiting = new Map<string, () => void>();
      const off = readModels.onApplied('conversations', (batch: RecordedEvent[]) => {
        for (const e of batch) {
          if (e.type !== 'StateChanged' || !('external_events' in (e.data as { changes: object }).changes)) continue;
          waiting.get(e.streamId)?.();
        }
      });
      const bind: number[] = [];
      const deliverOne = async (id: string) => {
        const seen = new Promise<void>((resolve) => waiting.set(`conversation-EV-${id}`, resolve));
        const t0 = performance.now();
        const r = await fetch(webhookUrl, {
          method: 'POST',
          headers: { ...h, 'content-type': 'application/json' },
          body: JSON.stringify({ id, status: 'paid' }),
        });
        if (r.status !== 201) throw new Error(`webhook answered ${r.status}`);
        await r.text();
        await seen;
        bind.push(performance.now() - t0);
      };
      for (let i = 0; i < bindIds.length; i += 4) await Promise.all(bindIds.slice(i, i + 4).map(deliverOne));
      off();
      stopCounting();
      bind.sort((a, b) => a - b);
      const drained = drains.reduce((sum, d) => sum + d.deliveries, 0);
      const drainMs = drains.reduce((sum, d) => sum + d.ms, 0);
      return {
        ...out,
        deliveryP99: moderate.p99,
        deliveryBound: `${pacedBound} of ${moderate.total}`,
        bindP50: percentile(bind, 50),
        bindP99: percentile(bind, 99),
        drainRate: drainMs > 0 ? (drained / drainMs) * 1000 : null,
        drained,
      };
    } finally {
      await app.close();
    }
  });
}

const result = (runs: number[], note: string): Result => ({ figure: median(runs), unit: 'req/s', runs, note });

export const externalEventsCases: BenchCase[] = [
  {
    name: 'external-events.webhook',
    run: async (ctx) =>
      result(
        (await measure(ctx)).webhook,
        'POST /v1/external-events/webhook, JSON payload, each binding a different awaited id; autocannon (own process), 50 connections',
      ),
  },
  {
    name: 'external-events.echo',
    run: async (ctx) =>
      result(
        (await measure(ctx)).echo,
        'baseline: a NestJS-Fastify POST echo of the same body in the same app; alternating rounds',
      ),
  },
  {
    name: 'external-events.backlog.bound-per-second',
    run: async (ctx) => {
      const f = await measure(ctx);
      return {
        figure: f.drainRate,
        unit: 'deliveries/s',
        note: `binding what the webhook series left queued (${f.drained} deliveries in all), nothing else running`,
      };
    },
  },
  {
    name: 'external-events.delivery.p99',
    run: async (ctx) => {
      const f = await measure(ctx);
      return {
        figure: f.deliveryP99,
        unit: 'ms',
        note: `webhook latency at 500 deliveries/s, open loop (evenly spaced, timed from each due time), up to ${PACED_CONNECTIONS} connections; ${f.deliveryBound} bound during the series`,
      };
    },
  },
  {
    name: 'external-events.bind.p99',
    run: async (ctx) => {
      const f = await measure(ctx);
      return {
        figure: f.bindP99,
        unit: 'ms',
        note: 'POST to the bound state applied in the conversations read model; 4 in flight',
        details: { p50: f.bindP50 },
      };
    },
  },
];
