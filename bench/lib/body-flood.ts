/**
 * Tenant A's flood, in its own process (cases/edge-flood.ts): `loops` closed loops, each posting
 * the next of `shapes` (lib/flood-bodies.ts) to `POST /v1/accounts/{A}/agents` as soon as its last
 * answer came, from `localAddress` (a tenant of its own at the edge, not B's address). Prints
 * `{"event":"flooding"}` at the first answer, then, once its stdin ends (or after `maxSeconds`),
 * stops sending, waits for what is in flight and prints one `{"event":"done",...}` line
 * (BodyFloodResult).
 *
 * argv: url accountId key loops shapes(comma-separated) bodyLimit localAddress maxSeconds
 */
import http from 'node:http';
import { floodBody, type FloodShape } from './flood-bodies';

export interface BodyFloodResult {
  requests: number;
  /** answers by status code */
  statuses: Record<string, number>;
  /** requests that got no answer, by error code */
  errors: Record<string, number>;
  /** body bytes written to the server */
  bytesSent: number;
  seconds: number;
  /** A's own answers, ms */
  p50: number;
  p99: number;
}

const [url, accountId, key, loopsArg, shapesArg, limitArg, localAddress, maxSecondsArg] = process.argv.slice(2);
const loops = Number(loopsArg);
const bodies = shapesArg.split(',').map((shape) => floodBody(shape as FloodShape, Number(limitArg)));
/** A request still unanswered after this long is counted as an error, so the flood always ends. */
const REQUEST_TIMEOUT_MS = 30_000;
const target = new URL(`${url}/v1/accounts/${accountId}/agents`);
const agent = new http.Agent({ keepAlive: true, maxSockets: loops, localAddress });

const statuses: Record<string, number> = {};
const errors: Record<string, number> = {};
const latencies: number[] = [];
let requests = 0;
let bytesSent = 0;
let stopping = false;
let flooding = false;
const startedAt = performance.now();

function post(n: number): Promise<void> {
  const { contentType, body } = bodies[n % bodies.length];
  const sentAt = performance.now();
  requests++;
  return new Promise((resolve) => {
    let settled = false;
    const settle = (outcome: { status: number } | { error: string }) => {
      if (settled) return;
      settled = true;
      if ('status' in outcome) {
        statuses[outcome.status] = (statuses[outcome.status] ?? 0) + 1;
        latencies.push(performance.now() - sentAt);
        if (!flooding) {
          flooding = true;
          process.stdout.write(`${JSON.stringify({ event: 'flooding' })}\n`);
        }
      } else errors[outcome.error] = (errors[outcome.error] ?? 0) + 1;
      resolve();
    };
    const request = http.request(
      {
        agent,
        host: target.hostname,
        port: target.port,
        path: target.pathname,
        method: 'POST',
        headers: { 'content-type': contentType, 'content-length': body.length, 'x-api-key': key },
      },
      (response) => {
        response.resume();
        response.on('end', () => settle({ status: response.statusCode! }));
        response.on('error', () => settle({ status: response.statusCode! }));
      },
    );
    request.setTimeout(REQUEST_TIMEOUT_MS, () =>
      request.destroy(Object.assign(new Error('timed out'), { code: 'TIMEOUT' })),
    );
    // a refusal may close the connection while the body is still being written: the answer counts
    request.on('error', (error: NodeJS.ErrnoException) => settle({ error: error.code ?? error.message }));
    request.end(body, () => (bytesSent += body.length));
  });
}

async function loop(index: number): Promise<void> {
  for (let n = index; !stopping; n += loops) await post(n);
}

function stop(): void {
  stopping = true;
}

process.stdin.on('end', stop).resume();
setTimeout(stop, Number(maxSecondsArg) * 1000).unref();

void Promise.all(Array.from({ length: loops }, (_, i) => loop(i))).then(() => {
  agent.destroy();
  latencies.sort((a, b) => a - b);
  const at = (p: number) => latencies[Math.min(latencies.length - 1, Math.floor(p * latencies.length))] ?? 0;
  const result: BodyFloodResult = {
    requests,
    statuses,
    errors,
    bytesSent,
    seconds: (performance.now() - startedAt) / 1000,
    p50: at(0.5),
    p99: at(0.99),
  };
  process.stdout.write(`${JSON.stringify({ event: 'done', ...result })}\n`);
  process.exit(0);
});
