import fs from 'node:fs';
import { ModulesContainer } from '@nestjs/core';
import { declaredRoutes } from '../../src/openapi/route-table';
import { startFuzzWorld, type FuzzWorld } from '../fuzz/fuzz-fixtures';
import { routeCatalog, routeKey, type CatalogRoute } from '../fuzz/route-catalog';
import { OpenApiAnswers, type OpenApiDoc } from '../support/openapi-answers';
import { patient } from '../support/patience';
import { CallRecordings } from '../../src/voice/recording/call-recordings';
import { addAnswerFixtures, call, rebuildFinished, runOrder, type Seen } from './route-walk';

/**
 * The document cannot drift from the code (issue 34): every registered route is called with the
 * valid request of the fuzz seeds (test/fuzz/route-seeds.ts) on a world with one of everything,
 * then again without credentials, and every answer must match the document's schema for its
 * status. `OPENAPI_DUMP=<file>` writes the answers seen, for writing a new route's table.
 */

describe('every answer matches the OpenAPI document (issue 34)', () => {
  let world: FuzzWorld;
  let answers: OpenApiAnswers;
  let routes: CatalogRoute[];
  const seen: Seen[] = [];

  beforeAll(async () => {
    world = await startFuzzWorld();
    await addAnswerFixtures(world, async (conversationId) => {
      const recording = world.t.app.get(CallRecordings).start(conversationId);
      recording.write(Buffer.alloc(160 * 4));
      await recording.finish();
    });
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
      await rebuildFinished(world);
      expect(problems).toEqual([]);
      // every route's success answer is checked too: a route that never succeeds here needs a seed above
      const neverSucceeded = statuses.filter((s) => !/ 2\d\d$/.test(s));
      expect(neverSucceeded).toEqual([]);
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
