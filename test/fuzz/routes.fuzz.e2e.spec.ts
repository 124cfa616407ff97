import fc from 'fast-check';
import { signBody } from '../../src/sms/sms-signature';
import { patient } from '../support/patience';
import {
  bodyCases,
  dtoFieldNames,
  pathCases,
  queryCases,
  type BodyCase,
  type PathCase,
  type QueryCase,
} from './arbitraries';
import { startFuzzWorld, type FuzzWorld } from './fuzz-fixtures';
import { answerProblems, brokenParts, deadLetterSeries, requestSeries, type Answer } from './oracle';
import { routeCatalog, routeKey, type CatalogRoute } from './route-catalog';
import { routeSeeds } from './route-seeds';
import type { Json } from '../helpers/json';

/**
 * Property-based fuzz of every HTTP route the app registers (issue 30; docs/fuzzing.md). For each
 * route, hostile paths, queries and bodies, on a real app with real fixtures; it asserts no 5xx,
 * the contract §2 envelope on every non-2xx answer, an answer within a bound, and after the route's
 * run a ready app with no broken read model or process manager. Failures are collected per route
 * and class, each with one input that shows it, so one run reports everything it found.
 */

const SEED = Number(process.env.FUZZ_SEED ?? 20261127);
const RUNS = Number(process.env.FUZZ_RUNS ?? 15);
/** `FUZZ_ROUTE='PATCH /v1/alert-rules/:ruleId'` (a substring) fuzzes the matching routes only. */
const ONLY = process.env.FUZZ_ROUTE;
/** `FUZZ_SHRINK=1`: stop a route at its first failure and let fast-check shrink the input. */
const SHRINK = process.env.FUZZ_SHRINK === '1';
const REQUEST_TIMEOUT_MS = patient(3000);

interface FuzzInput {
  path: PathCase;
  query: QueryCase;
  body: BodyCase;
}

interface Failure {
  route: string;
  kind: string;
  count: number;
  example: string;
}

/** The order routes run in: writes that destroy fixtures last (deepest first), the clock last of all. */
function runOrder(routes: CatalogRoute[]): CatalogRoute[] {
  const rank = (r: CatalogRoute) => (r.url.includes('/clock/') ? 2 : r.method === 'DELETE' ? 1 : 0);
  return [...routes].sort(
    (a, b) => rank(a) - rank(b) || (rank(a) === 1 ? b.url.split('/').length - a.url.split('/').length : 0),
  );
}

const hash = (text: string) => [...text].reduce((h, c) => (Math.imul(h, 31) + c.charCodeAt(0)) | 0, 0);

function inputs(route: CatalogRoute, world: FuzzWorld): fc.Arbitrary<FuzzInput> {
  const seed = routeSeeds(world.ids)[routeKey(route.method, route.url)] ?? {};
  const bodyFields = dtoFieldNames(route.bodyType);
  const queryNames = [...dtoFieldNames(route.queryType), ...(seed.queryNames ?? [])];
  const hasBody = route.method !== 'GET' && route.method !== 'HEAD';
  return fc.record({
    path: pathCases(route.params, world.ids),
    query: queryCases(seed.query ?? {}, queryNames),
    body: hasBody ? bodyCases(seed.body, bodyFields) : fc.constant<BodyCase>({ label: 'no body' }),
  });
}

function urlFor(route: CatalogRoute, input: FuzzInput): { path: string; url: string } {
  const path = route.url.replace(/:([A-Za-z0-9_]+)/g, (_, name: string) => input.path.values[name]);
  return { path, url: input.query.query ? `${path}?${input.query.query}` : path };
}

async function send(world: FuzzWorld, route: CatalogRoute, input: FuzzInput): Promise<Answer | { error: string }> {
  const { url } = urlFor(route, input);
  const bytes = input.body.bytes ?? (input.body.text !== undefined ? Buffer.from(input.body.text, 'utf8') : undefined);
  const headers: Record<string, string> = { ...world.headers };
  if (input.body.contentType !== undefined && bytes !== undefined) headers['content-type'] = input.body.contentType;
  // the carrier webhook's signature, over the bytes as sent: SMS inbound bodies get past it
  if (bytes !== undefined) headers['x-signature'] = signBody(world.smsWebhookSecret, bytes);
  try {
    const response = await fetch(`${world.t.url}${url}`, {
      method: route.method,
      headers,
      body: bytes,
      signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
    });
    return { status: response.status, headers: response.headers, text: await response.text() };
  } catch (error) {
    const cause = (error as { cause?: { code?: string; message?: string } }).cause;
    return {
      error: `${(error as Error).name}: ${(error as Error).message}${cause ? ` (${cause.code ?? cause.message})` : ''}`,
    };
  }
}

const excerpt = (text: string | undefined, max = 400) =>
  text === undefined
    ? '(none)'
    : text.length > max
      ? `${JSON.stringify(text.slice(0, max))}… (${text.length} chars)`
      : JSON.stringify(text);

function describeFailure(route: CatalogRoute, input: FuzzInput, answer: Answer | { error: string }): string {
  const { url } = urlFor(route, input);
  const sent = [
    `${route.method} ${excerpt(url, 300)}`,
    input.path.label && `path: ${input.path.label}`,
    `query: ${input.query.label}`,
    `body: ${input.body.label}`,
    input.body.contentType !== undefined && `content-type: ${JSON.stringify(input.body.contentType)}`,
  ]
    .filter(Boolean)
    .join('\n      ');
  const got = 'error' in answer ? answer.error : `${answer.status} ${excerpt(answer.text)}`;
  return `sent ${sent}\n    got ${got}`;
}

/** A failure's class: what went wrong and the code it came with, not the input's details. */
function failureKind(answer: Answer | { error: string }, problems: string[]): string {
  if ('error' in answer) return `no answer: ${answer.error.replace(/\d+/g, 'N')}`;
  let code: string;
  try {
    const body = JSON.parse(answer.text);
    // Fastify's own error bodies carry `code` (FST_ERR_...) instead of `error_code`
    code = body?.error_code ?? body?.code ?? '';
  } catch {
    code = '(not JSON)';
  }
  return `${answer.status} ${code}: ${problems.join('; ')}`;
}

async function readyz(world: FuzzWorld): Promise<{ status: number; body: Json }> {
  const response = await fetch(`${world.t.url}/readyz`, { signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS) });
  return { status: response.status, body: await response.json() };
}

async function metrics(world: FuzzWorld): Promise<string> {
  const response = await fetch(`${world.t.url}/metrics`, {
    headers: { 'x-operator-token': world.t.operatorToken },
    signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
  });
  return response.text();
}

/**
 * After a route's run: `/readyz` ready (read models may lag a moment behind a burst, so it is
 * polled), and no read model or process manager failed, erroring, or holding dead letters.
 */
async function healthProblems(world: FuzzWorld): Promise<string[]> {
  const deadline = Date.now() + patient(2000);
  for (;;) {
    let answer: { status: number; body: Json };
    try {
      answer = await readyz(world);
    } catch (error) {
      return [`/readyz did not answer: ${(error as Error).message}`];
    }
    const broken = brokenParts(answer.body);
    if (broken.length > 0) return broken;
    if (answer.status === 200 && answer.body.status === 'ready') break;
    if (Date.now() > deadline)
      return [`/readyz ${answer.status} ${answer.body?.status}: ${excerpt(JSON.stringify(answer.body))}`];
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return deadLetterSeries(await metrics(world)).map((line) => `/metrics: ${line}`);
}

/** Failures grouped by class: each class once, with the routes it hit and one example per route. */
function report(found: Failure[]): string {
  const byKind = new Map<string, Failure[]>();
  for (const f of found) byKind.set(f.kind, [...(byKind.get(f.kind) ?? []), f]);
  return [...byKind.entries()]
    .map(
      ([kind, list]) =>
        `■ ${kind}\n` +
        list.map((f) => `  • ${f.route} (×${f.count})\n    ${f.example.replace(/\n/g, '\n    ')}`).join('\n'),
    )
    .join('\n\n');
}

describe('every route under hostile input (issue 30)', () => {
  let world: FuzzWorld;
  let routes: CatalogRoute[];
  const failures = new Map<string, Failure>();
  const matched = new Set<string>();
  const timings: Array<[string, number]> = [];
  const slow: string[] = [];

  const fail = (route: string, kind: string, example: () => string) => {
    const key = `${route}\n${kind}`;
    const known = failures.get(key);
    if (known) known.count += 1;
    else failures.set(key, { route, kind, count: 1, example: example() });
  };

  /** Requests per route template, from the server's own counter; the fixtures' own are the baseline. */
  let baseline = new Map<string, number>();
  const counts = async () => {
    const byRoute = new Map<string, number>();
    for (const s of requestSeries(await metrics(world)))
      byRoute.set(routeKey(s.method, s.route), (byRoute.get(routeKey(s.method, s.route)) ?? 0) + s.count);
    return byRoute;
  };
  const recordMatched = async () => {
    for (const [key, count] of await counts()) if (count > (baseline.get(key) ?? 0)) matched.add(key);
  };
  const freshWorld = async () => {
    world = await startFuzzWorld();
    baseline = await counts();
  };

  beforeAll(async () => {
    await freshWorld();
    routes = runOrder(routeCatalog(world.t.app));
  });

  afterAll(async () => {
    await world?.close();
  });

  test('the catalogue is the router: every route parsed from Fastify exists there, with a fixture for each path param', () => {
    const fastify = world.t.app.getHttpAdapter().getInstance();
    expect(routes.length).toBeGreaterThan(40);
    expect(routes.filter((r) => !fastify.hasRoute({ method: r.method as 'GET', url: r.url }))).toEqual([]);
    const unfilled = routes.flatMap((r) =>
      r.params.filter((p) => world.ids[p] === undefined).map((p) => `${routeKey(r.method, r.url)} :${p}`),
    );
    // a new route whose path names a new kind of id needs that id in fuzz-fixtures.ts
    expect(unfilled).toEqual([]);
  });

  test(
    'no 5xx, the envelope on every error, an answer every time, and a ready app after each route',
    async () => {
      const started = Date.now();
      for (const route of routes) {
        const key = routeKey(route.method, route.url);
        if (ONLY && !key.includes(ONLY)) continue;
        const seed = (SEED + hash(key)) | 0;
        const routeStarted = Date.now();
        let poisoned = false;
        await fc
          .assert(
            fc.asyncProperty(inputs(route, world), async (input) => {
              // once a read model is broken every write waits out read-your-writes: the rest of this
              // route's runs would only repeat that at seconds apiece
              if (poisoned) return;
              const sentAt = Date.now();
              const answer = await send(world, route, input);
              if (Date.now() - sentAt > 1000)
                slow.push(
                  `${Date.now() - sentAt} ms ${key}: ${input.path.label} | ${input.query.label} | ${input.body.label} -> ${'error' in answer ? answer.error : `${answer.status} ${answer.text.slice(0, 120)}`}`,
                );
              if (!('error' in answer) && answer.status === 503 && answer.text.includes('READ_MODEL_LAGGING')) {
                poisoned = brokenParts((await readyz(world)).body).length > 0;
              }
              // the path the server saw: the URL parser resolves `..` and `%2e%2e` segments first
              const served = new URL(urlFor(route, input).url, world.t.url).pathname;
              const problems = 'error' in answer ? [answer.error] : answerProblems(served, answer);
              if (problems.length === 0) return;
              fail(key, failureKind(answer, problems), () => describeFailure(route, input, answer));
              if (SHRINK) throw new Error(describeFailure(route, input, answer));
            }),
            { seed, numRuns: RUNS, endOnFailure: !SHRINK },
          )
          .catch((error: Error) =>
            fail(
              key,
              'shrunk counterexample',
              () => `${error.message}\n    reproduce: FUZZ_SEED=${SEED} FUZZ_ROUTE='${key}' FUZZ_SHRINK=1`,
            ),
          );
        timings.push([key, Date.now() - routeStarted]);
        const health = await healthProblems(world);
        await recordMatched();
        if (health.length > 0) {
          for (const problem of health)
            fail(key, `app unhealthy after the run: ${problem.replace(/\d+/g, 'N').slice(0, 160)}`, () => problem);
          // a fresh app and fixtures, so the next route's findings are its own
          await world.close();
          await freshWorld();
        }
      }
      if (process.env.FUZZ_TIMINGS === '1') console.log(slow.join('\n'));
      if (process.env.FUZZ_TIMINGS === '1')
        console.log(
          timings
            .sort((a, b) => b[1] - a[1])
            .map(([k, ms]) => `${ms} ms ${k}`)
            .join('\n'),
        );
      if (failures.size > 0)
        throw new Error(
          `FUZZ_SEED=${SEED} FUZZ_RUNS=${RUNS} (${Math.round((Date.now() - started) / 1000)} s); one route: FUZZ_ROUTE='<METHOD /path>'\n\n${report([...failures.values()])}`,
        );
    },
    patient(600_000),
  );

  test('every registered route was exercised: the server matched each one at least once', async () => {
    await recordMatched();
    const missed = routes
      .map((r) => routeKey(r.method, r.url))
      .filter((key) => (!ONLY || key.includes(ONLY)) && !matched.has(key));
    expect(missed).toEqual([]);
  });
});
