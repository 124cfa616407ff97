/**
 * An open-loop load at a fixed rate, in its own process: request i is due at i / rate seconds,
 * whatever became of the ones before it, over a pool of keep-alive connections. Each latency runs
 * from the request's due time to the end of its answer, so a stalled server is charged for every
 * request it held back, queued ones included (coordinated omission, counted rather than estimated).
 *
 * Why not autocannon's `overallRate`: it sends each connection's quota for the second back to back
 * at the top of the second and then idles (a burst, not a rate), and it "corrects" its histogram by
 * recording every answer of n ms as n samples (an expected interval of 1 ms): a single 30 ms answer
 * becomes thirty, which is what its p99 then reports.
 *
 * argv: url rate seconds connections start count [header=value ...]; each body is
 * `{"id":"bench-<n>","status":"paid"}` with n counting up from `start` (modulo `count`).
 * Prints one JSON line (PacedLoadResult).
 */
import http from 'node:http';

export interface PacedLoadResult {
  total: number;
  non2xx: number;
  errors: number;
  p50: number;
  p99: number;
  max: number;
  /** the longest any request waited for a free connection before it was sent */
  maxQueuedMs: number;
  /**
   * The 99th percentile of that wait: with connections to spare, it is this process being late to
   * send (its own event loop waiting for a core), which the latencies charge to the server.
   */
  p99QueuedMs: number;
  activeSeconds: number;
}

const [url, rateArg, secondsArg, connectionsArg, startArg, countArg, ...headerArgs] = process.argv.slice(2);
const rate = Number(rateArg);
const total = Math.round(rate * Number(secondsArg));
const count = Number(countArg);
const headers: Record<string, string> = { 'content-type': 'application/json' };
for (const h of headerArgs) {
  const at = h.indexOf('=');
  headers[h.slice(0, at)] = h.slice(at + 1);
}
const REQUEST_TIMEOUT_MS = 10_000;
const agent = new http.Agent({ keepAlive: true, maxSockets: Number(connectionsArg) });
const target = new URL(url);

const latencies: number[] = [];
let non2xx = 0;
let errors = 0;
let settled = 0;
let maxQueuedMs = 0;
const queued: number[] = [];
let sent = 0;
let lastAnswerAt = 0;
const startedAt = performance.now() + 50;

function send(n: number, dueAt: number): void {
  const body = JSON.stringify({ id: `bench-${(Number(startArg) + n) % count}`, status: 'paid' });
  const request = http.request(
    {
      agent,
      host: target.hostname,
      port: target.port,
      path: target.pathname + target.search,
      method: 'POST',
      headers: { ...headers, 'content-length': Buffer.byteLength(body) },
    },
    (response) => {
      response.resume();
      response.on('end', () => {
        lastAnswerAt = performance.now();
        if (response.statusCode! >= 200 && response.statusCode! < 300) latencies.push(lastAnswerAt - dueAt);
        else non2xx++;
        done();
      });
    },
  );
  request.on('socket', () => {
    const waited = performance.now() - dueAt;
    queued.push(waited);
    maxQueuedMs = Math.max(maxQueuedMs, waited);
  });
  // a server that stops answering fails the series instead of hanging it
  request.setTimeout(REQUEST_TIMEOUT_MS, () => request.destroy(new Error('timed out')));
  request.on('error', () => {
    errors++;
    done();
  });
  request.end(body);
}

function done(): void {
  if (++settled < total) return;
  agent.destroy();
  latencies.sort((a, b) => a - b);
  const at = (p: number) => latencies[Math.min(latencies.length - 1, Math.floor(p * latencies.length))] ?? 0;
  const result: PacedLoadResult = {
    total: latencies.length,
    non2xx,
    errors,
    p50: at(0.5),
    p99: at(0.99),
    max: latencies[latencies.length - 1] ?? 0,
    maxQueuedMs,
    p99QueuedMs: queued.sort((a, b) => a - b)[Math.floor(0.99 * queued.length)] ?? 0,
    activeSeconds: (lastAnswerAt - startedAt) / 1000,
  };
  process.stdout.write(JSON.stringify(result));
}

/** Sends every request that has come due, then sleeps until the next one is. */
function tick(): void {
  const now = performance.now();
  while (sent < total && startedAt + (sent * 1000) / rate <= now) {
    send(sent, startedAt + (sent * 1000) / rate);
    sent++;
  }
  if (sent < total) setTimeout(tick, Math.max(0, startedAt + (sent * 1000) / rate - performance.now()));
}

setTimeout(tick, 50);
