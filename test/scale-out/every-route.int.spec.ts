import { populate, type FuzzWorld } from '../fuzz/fuzz-fixtures';
import type { CatalogRoute } from '../fuzz/route-catalog';
import { addAnswerFixtures, call, rebuildFinished, runOrder } from '../openapi/route-walk';
import { OpenApiAnswers, type OpenApiDoc } from '../support/openapi-answers';
import { APP_PROCESS_TEST_TIMEOUT_MS, patient } from '../support/patience';
import { postgresBinariesOrSkip } from '../support/postgres-server';
import { startCluster, type Cluster } from './cluster';

const binaries = postgresBinariesOrSkip('a three-process cluster on one PostgreSQL (test/scale-out/every-route)');
const maybe = binaries ? describe : describe.skip;

/** The document's operations as routes: the document holds every API route (openapi-completeness proves it). */
function documentedRoutes(document: OpenApiDoc): CatalogRoute[] {
  return Object.entries(document.paths).flatMap(([template, operations]) =>
    Object.keys(operations)
      .filter((verb) => ['get', 'post', 'put', 'patch', 'delete'].includes(verb))
      .map((verb) => ({
        method: verb.toUpperCase(),
        url: template.replace(/\{([^}]+)\}/g, ':$1'),
        params: [...template.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]),
      })),
  );
}

/**
 * Every route works through every process (issue 48, contract §22): three Parley processes on one
 * PostgreSQL (log, read models, platform records). Three walks: walk k builds its world through
 * member k+1 and calls every route through member k, the moment each answer before it was sent,
 * so each route is served by each member, and every write is read back through a member that did
 * not take it (read-your-writes across processes).
 */
maybe('a three-process cluster on one PostgreSQL', () => {
  let cluster: Cluster;

  beforeAll(async () => {
    cluster = await startCluster(binaries!, 3);
  }, patient(180_000));

  afterAll(async () => {
    await cluster?.stop();
  });

  for (const k of [0, 1, 2]) {
    test(
      `walk ${k}: a world built through member ${(k + 1) % 3}, every route called through member ${k}`,
      async () => {
        // the world's phone numbers and names are the same each walk, and are unique platform-wide
        if (k > 0) await cluster.fresh();
        const builder = cluster.members[(k + 1) % 3];
        const server = cluster.members[k];
        const world: FuzzWorld = await populate(builder.t);
        // the recording route serves files a call wrote on its member's disk: not built here (no SIP call)
        await addAnswerFixtures(world, null);
        const document = (await (await fetch(`${server.t.url}/openapi.json`)).json()) as OpenApiDoc;
        const answers = new OpenApiAnswers(document);
        const routes = runOrder(documentedRoutes(document)).filter((r) => !r.url.endsWith('/recording'));
        expect(routes.length).toBeGreaterThan(100);

        const problems: string[] = [];
        const failed: string[] = [];
        for (const route of routes) {
          const answer = await call(world, route, world.headers, server.t.url);
          if (answer.status >= 300) failed.push(`${answer.route} ${answer.status} ${answer.text.slice(0, 200)}`);
          problems.push(...answers.check(route.method, answer.url, answer.status, answer.contentType, answer.text));
        }
        await rebuildFinished({ ...world, t: server.t });
        expect(failed).toEqual([]);
        expect(problems).toEqual([]);
      },
      APP_PROCESS_TEST_TIMEOUT_MS,
    );
  }
});
