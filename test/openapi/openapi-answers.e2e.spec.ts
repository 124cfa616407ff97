import fs from 'node:fs';
import { ModulesContainer } from '@nestjs/core';
import { declaredRoutes } from '../../src/openapi/route-table';
import { signBody } from '../../src/sms/sms-signature';
import { startFuzzWorld, type FuzzWorld } from '../fuzz/fuzz-fixtures';
import { routeCatalog, routeKey, type CatalogRoute } from '../fuzz/route-catalog';
import { routeSeeds, type RouteSeed } from '../fuzz/route-seeds';
import { OpenApiAnswers, type OpenApiDoc } from '../support/openapi-answers';
import { patient } from '../support/patience';

/**
 * The document cannot drift from the code (issue 34): every registered route is called with the
 * valid request of the fuzz seeds (test/fuzz/route-seeds.ts) on a world with one of everything,
 * then again without credentials, and every answer must match the document's schema for its
 * status. `OPENAPI_DUMP=<file>` writes the answers seen, for writing a new route's table.
 */

/** Writes that destroy fixtures last, deepest first; the clock last of all (as the fuzz suite runs them). */
function runOrder(routes: CatalogRoute[]): CatalogRoute[] {
  const rank = (r: CatalogRoute) => (r.url.includes('/clock/') ? 2 : r.method === 'DELETE' ? 1 : 0);
  return [...routes].sort(
    (a, b) => rank(a) - rank(b) || (rank(a) === 1 ? b.url.split('/').length - a.url.split('/').length : 0),
  );
}

/** Requests the fuzz seeds leave failing (they aim past validation, not at success), made to succeed. */
function seedsFor(ids: Record<string, string>): Record<string, RouteSeed> {
  const chat = '/v1/:accountId/:projectId/chat';
  return {
    ...routeSeeds(ids),
    [`POST ${chat}/create`]: { body: { client_env: 'sandbox', message: 'when do you open' } },
    [`POST ${chat}/respond`]: { body: { conversation_id: ids.chatToRespond, message: 'when do you open' } },
    [`PUT ${chat}/close`]: { body: { conversation_id: ids.chatToClose } },
  };
}

interface Seen {
  route: string;
  status: number;
  contentType: string | null;
  text: string;
}

async function call(
  world: FuzzWorld,
  route: CatalogRoute,
  headers: Record<string, string>,
): Promise<Seen & { url: string }> {
  const seed = seedsFor(world.ids)[routeKey(route.method, route.url)] ?? {};
  const path = route.url.replace(/:([A-Za-z0-9_]+)/g, (_, name: string) => encodeURIComponent(world.ids[name]));
  const query = new URLSearchParams(seed.query ?? {}).toString();
  const url = `${world.t.url}${path}${query ? `?${query}` : ''}`;
  const hasBody = route.method !== 'GET' && route.method !== 'DELETE';
  const body = hasBody ? JSON.stringify(seed.body ?? {}) : undefined;
  const sent: Record<string, string> = { ...headers };
  if (body !== undefined) {
    sent['content-type'] = 'application/json';
    sent['x-signature'] = signBody(world.smsWebhookSecret, Buffer.from(body));
  }
  const response = await fetch(url, {
    method: route.method,
    headers: sent,
    body,
    signal: AbortSignal.timeout(patient(10_000)),
  });
  return {
    url,
    route: routeKey(route.method, route.url),
    status: response.status,
    contentType: response.headers.get('content-type'),
    text: await response.text(),
  };
}

describe('every answer matches the OpenAPI document (issue 34)', () => {
  let world: FuzzWorld;
  let answers: OpenApiAnswers;
  let routes: CatalogRoute[];
  const seen: Seen[] = [];

  beforeAll(async () => {
    world = await startFuzzWorld();
    for (const name of ['chatToRespond', 'chatToClose']) {
      const started = await fetch(`${world.t.url}/v1/${world.ids.accountId}/${world.ids.agentId}/chat/create`, {
        method: 'POST',
        headers: { ...world.headers, 'content-type': 'application/json' },
        body: JSON.stringify({ client_env: 'sandbox' }),
      });
      expect(started.status).toBe(201);
      world.ids[name] = ((await started.json()) as { conversation_id: string }).conversation_id;
    }
    const document = (await (await fetch(`${world.t.url}/openapi.json`)).json()) as OpenApiDoc;
    answers = new OpenApiAnswers(document);
    // routes left out of the document on purpose (@ApiExcludeController: Studio's files) answer as they like
    const excluded = new Set(
      declaredRoutes(world.t.app.get(ModulesContainer))
        .filter((r) => r.excluded)
        .map((r) => routeKey(r.method, r.fastifyPath)),
    );
    routes = runOrder(routeCatalog(world.t.app).filter((r) => !excluded.has(routeKey(r.method, r.url))));
  });

  afterAll(async () => {
    if (process.env.OPENAPI_DUMP) fs.writeFileSync(process.env.OPENAPI_DUMP, JSON.stringify(seen, null, 1));
    await world?.close();
  });

  test(
    'a valid call of every route answers as documented',
    async () => {
      const problems: string[] = [];
      const statuses: string[] = [];
      for (const route of routes) {
        const answer = await call(world, route, world.headers);
        seen.push(answer);
        statuses.push(`${answer.route} ${answer.status}`);
        problems.push(...answers.check(route.method, answer.url, answer.status, answer.contentType, answer.text));
      }
      expect(problems).toEqual([]);
      // the seeds are valid requests: most must succeed, or this checks only error envelopes
      const succeeded = statuses.filter((s) => / 2\d\d$/.test(s));
      expect(succeeded.length).toBeGreaterThan(routes.length * 0.8);
    },
    patient(300_000),
  );

  test(
    'every route answers as documented without credentials',
    async () => {
      const problems: string[] = [];
      for (const route of routes) {
        if (route.url.includes('/clock/')) continue;
        const answer = await call(world, route, {});
        seen.push(answer);
        problems.push(...answers.check(route.method, answer.url, answer.status, answer.contentType, answer.text));
      }
      expect(problems).toEqual([]);
    },
    patient(300_000),
  );
});
