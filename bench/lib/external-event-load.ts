/**
 * autocannon in its own process, POSTing a JSON body whose `id` counts up from 0 (modulo `count`):
 * every external-event delivery names a different awaited id. Prints autocannon's JSON result.
 * argv: url connections seconds count start amount(0 = no limit) [header=value ...]
 * With an amount the series ends after that many requests (or `seconds`, whichever comes first):
 * the bench gives each webhook series only ids no earlier series used.
 */
import autocannon from 'autocannon';

const [url, connections, seconds, count, start, amount, ...headerArgs] = process.argv.slice(2);
const headers: Record<string, string> = { 'content-type': 'application/json' };
for (const h of headerArgs) {
  const at = h.indexOf('=');
  headers[h.slice(0, at)] = h.slice(at + 1);
}
let n = Number(start);
// autocannon ends a series only on its 1 s tick, so a series that stops at `amount` reports a
// duration rounded up to whole seconds: the rate is taken from the first request to the last answer.
const startedAt = performance.now();
let lastResponseAt = startedAt;
const instance = autocannon(
  {
    url,
    method: 'POST',
    connections: Number(connections),
    duration: Number(seconds),
    // not `amount`: that overrides `duration`, and a series would run until its ids ran out
    ...(Number(amount) > 0 ? { maxOverallRequests: Number(amount) } : {}),
    headers,
    requests: [
      {
        setupRequest: (request: Record<string, unknown>) => ({
          ...request,
          body: JSON.stringify({ id: `bench-${n++ % Number(count)}`, status: 'paid' }),
        }),
      },
    ],
  },
  (error, result) => {
    if (error) {
      process.stderr.write(`${error.message}\n`);
      process.exit(1);
    }
    process.stdout.write(JSON.stringify({ ...result, activeSeconds: (lastResponseAt - startedAt) / 1000 }));
  },
);
instance.on('response', () => {
  lastResponseAt = performance.now();
});
