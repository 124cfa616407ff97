import http from 'node:http';

/** One route the probe calls, in turn with the others. */
export interface ProbeRoute {
  path: string;
  headers?: Record<string, string>;
}

interface RouteFigures {
  sent: number;
  /** 2xx answers */
  answered: number;
  /**
   * ms from each request's due time to the end of its answer, every request counted: one not
   * answered 2xx counts at the time it failed (a timeout at REQUEST_TIMEOUT_MS), so when requests
   * time out these are a lower bound
   */
  p50: number;
  p99: number;
  max: number;
  /** the 99th percentile over the 2xx answers alone */
  answeredP99: number;
}

export interface ProbeResult extends RouteFigures {
  /** answers by status code */
  statuses: Record<string, number>;
  /** requests that got no answer, by error code (`TIMEOUT`: none within REQUEST_TIMEOUT_MS) */
  errors: Record<string, number>;
  /** the 99th percentile of how late this process sent a request: its own event loop, not the server */
  p99LateMs: number;
  byRoute: Record<string, RouteFigures>;
}

/** A request unanswered this long after it was sent counts as not answered, so a stalled server ends the series. */
const REQUEST_TIMEOUT_MS = 10_000;

/**
 * Tenant B's requests at a fixed rate (open loop: request i is due at i / rate seconds whatever
 * became of the others), each timed from its due time, so a stall is charged to every request it
 * held back. `fresh`: each request on a new connection (a client arriving during a flood, a load
 * balancer's health check); otherwise a keep-alive pool sized for answers of a second.
 */
export function probeTenant(options: {
  url: string;
  routes: ProbeRoute[];
  rate: number;
  seconds: number;
  fresh: boolean;
  localAddress?: string;
}): Promise<ProbeResult> {
  const { url, routes, rate, fresh, localAddress } = options;
  const total = Math.max(1, Math.round(rate * options.seconds));
  const target = new URL(url);
  const agent = fresh ? false : new http.Agent({ keepAlive: true, maxSockets: Math.ceil(rate), localAddress });
  const latencies = routes.map(() => [] as number[]);
  const failedAt = routes.map(() => [] as number[]);
  const sent = routes.map(() => 0);
  const statuses: Record<string, number> = {};
  const errors: Record<string, number> = {};
  const late: number[] = [];
  let settled = 0;
  const startedAt = performance.now() + 20;

  return new Promise((resolve) => {
    const finish = () => {
      if (++settled < total) return;
      if (agent) agent.destroy();
      const byRoute = Object.fromEntries(routes.map((r, i) => [r.path, figures(sent[i], latencies[i], failedAt[i])]));
      resolve({
        ...figures(total, latencies.flat(), failedAt.flat()),
        statuses,
        errors,
        p99LateMs: percentile(
          late.sort((a, b) => a - b),
          0.99,
        ),
        byRoute,
      });
    };
    const send = (n: number, dueAt: number) => {
      const route = n % routes.length;
      sent[route]++;
      late.push(performance.now() - dueAt);
      let done = false;
      // timed from the send, not the socket: a full pool queues a request before it has one
      const timer = setTimeout(
        () => request.destroy(Object.assign(new Error('timed out'), { code: 'TIMEOUT' })),
        REQUEST_TIMEOUT_MS,
      );
      const settle = (outcome: { status: number } | { error: string }) => {
        if (done) return;
        done = true;
        clearTimeout(timer);
        const ok = 'status' in outcome && outcome.status >= 200 && outcome.status < 300;
        (ok ? latencies : failedAt)[route].push(performance.now() - dueAt);
        if ('status' in outcome) statuses[outcome.status] = (statuses[outcome.status] ?? 0) + 1;
        else errors[outcome.error] = (errors[outcome.error] ?? 0) + 1;
        finish();
      };
      const request = http.request(
        {
          agent,
          host: target.hostname,
          port: target.port,
          path: routes[route].path,
          method: 'GET',
          localAddress: fresh ? localAddress : undefined,
          headers: { ...routes[route].headers, ...(fresh ? { connection: 'close' } : {}) },
        },
        (response) => {
          response.resume();
          response.on('end', () => settle({ status: response.statusCode! }));
          response.on('error', () => settle({ status: response.statusCode! }));
        },
      );
      request.on('error', (error: NodeJS.ErrnoException) => settle({ error: error.code ?? error.message }));
      request.end();
    };
    let next = 0;
    const tick = () => {
      const now = performance.now();
      while (next < total && startedAt + (next * 1000) / rate <= now) {
        send(next, startedAt + (next * 1000) / rate);
        next++;
      }
      if (next < total) setTimeout(tick, Math.max(0, startedAt + (next * 1000) / rate - performance.now()));
    };
    setTimeout(tick, 20);
  });
}

function figures(sent: number, answered: number[], failed: number[]): RouteFigures {
  const ok = [...answered].sort((a, b) => a - b);
  const every = [...answered, ...failed].sort((a, b) => a - b);
  return {
    sent,
    answered: ok.length,
    p50: percentile(every, 0.5),
    p99: percentile(every, 0.99),
    max: every[every.length - 1] ?? 0,
    answeredP99: percentile(ok, 0.99),
  };
}

const percentile = (sorted: number[], p: number) =>
  sorted.length === 0 ? 0 : sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))];
