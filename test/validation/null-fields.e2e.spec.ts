import Ajv2020 from 'ajv/dist/2020';
import { startFuzzWorld, type FuzzWorld } from '../fuzz/fuzz-fixtures';
import { routeSeeds } from '../fuzz/route-seeds';
import { patient } from '../support/patience';
import type { Json } from '../helpers/json';
import { NullCases, type NullCase } from './null-cases';

/**
 * Issue 47, "the null gaps": optional means absent, never null (docs/input-rules.md), for every
 * field of every request body the OpenAPI document describes, so a field added later is covered
 * without editing this file. Each optional property, at every depth, is sent as `null` in an
 * otherwise valid body to a real app with real ids (the fuzz world), and must answer 400 naming it.
 */

/** The fields whose documentation gives `null` a meaning: `METHOD /path field`, with what it means. */
const NULL_MEANS: Record<string, string> = {
  'POST /v1/alert-rules project_id': 'the rule watches the whole account (docs/api/alerts.md)',
  'PATCH /v1/alert-rules/{ruleId} project_id': 'the rule watches the whole account (docs/api/alerts.md)',
  ...Object.fromEntries(
    [
      'confidence_threshold',
      'fallback_text',
      'small_talk',
      'model',
      'environment_models',
      'environment_models.sandbox',
      'environment_models.pre-release',
      'environment_models.live',
      'retrieval',
      'environment_retrieval',
      'environment_retrieval.sandbox',
      'environment_retrieval.pre-release',
      'environment_retrieval.live',
      'voice',
      'voice.recording',
      'voice.end_of_turn_min_ms',
      'voice.end_of_turn_max_ms',
      'privacy',
      'privacy.redact',
      'analysis',
      'analysis.fields',
    ].map((field) => [
      `PUT /v1/agents/{agentId}/branches/{branchId}/settings ${field}`,
      "puts the setting's default back (docs/api/runtime-settings.md)",
    ]),
  ),
  'POST /v1/agents/{agentId}/branches/{branchId}/merge conflictResolutions.0.value':
    "deletes the topic, test or tool; a setting's default (docs/api/agents.md, runtime-settings.md)",
};

/**
 * Routes outside the validation pipe that answer their API family's own documented code for a
 * bad body, still naming the field: the messaging API's session body (interface.md's table).
 */
const FAMILY_CODES: Record<string, string> = { 'POST /api/v1/sessions': 'INVALID_REQUEST_BODY' };

type Operation = {
  requestBody?: { content?: Record<string, { schema?: Record<string, unknown>; example?: unknown }> };
};
type Document = {
  paths: Record<string, Record<string, Operation>>;
  components?: { schemas?: Record<string, Record<string, unknown>> };
};

describe('null in any optional field of any request body answers 400 naming it (issue 47)', () => {
  let world: FuzzWorld;
  let document: Document;

  beforeAll(async () => {
    world = await startFuzzWorld();
    document = (await (await fetch(`${world.t.url}/openapi.json`)).json()) as Document;
  });
  afterAll(async () => world?.close());

  /** What is wrong with the answer to one null case; null when it is the refusal it should be. */
  function problemOf(route: string, c: NullCase, status: number, body: Json, correlationId: string | null) {
    const code = FAMILY_CODES[route] ?? 'VALIDATION_ERROR';
    const expected = `${c.field} must not be null`;
    const rows: Array<{ field: string; message: string }> = Array.isArray(body?.errors) ? body.errors : [];
    const names =
      code === 'VALIDATION_ERROR'
        ? rows.some((r) => r.field === c.field && r.message === expected) ||
          String(body?.error_message).split('; ').includes(expected)
        : rows.some((r) => r.field === c.field);
    const envelope = body?.success === false && body.data === null && body.error_id === correlationId;
    if (status === 400 && body?.error_code === code && names && envelope) return null;
    return `${route} ${c.field}: null answered ${status} ${JSON.stringify(body).slice(0, 300)}`;
  }

  test(
    'every optional property, nested ones and items of arrays included, at every JSON operation',
    async () => {
      const seeds = routeSeeds(world.ids);
      const nullCases = new NullCases(document);
      const ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: false });
      ajv.addSchema(document as object, 'openapi.json');
      const problems: string[] = [];
      const walked = new Set<string>();
      let sent = 0;

      for (const [path, operations] of Object.entries(document.paths)) {
        for (const [verb, operation] of Object.entries(operations)) {
          const media = operation.requestBody?.content?.['application/json'];
          if (!media?.schema) continue;
          const route = `${verb.toUpperCase()} ${path}`;
          const seed = seeds[`${verb.toUpperCase()} ${path.replace(/\{([^}]+)\}/g, ':$1')}`]?.body;
          let cases: NullCase[];
          try {
            cases = nullCases.of(media.schema, [seed, media.example]);
          } catch (error) {
            problems.push(`${route}: ${(error as Error).message}`);
            continue;
          }
          const pointer = ['paths', path, verb, 'requestBody', 'content', 'application/json', 'schema']
            .map((p) => p.replace(/~/g, '~0').replace(/\//g, '~1'))
            .join('/');
          const validate = ajv.compile({ $ref: `openapi.json#/${pointer}` });
          const url = world.t.url + path.replace(/\{([^}]+)\}/g, (_, name: string) => world.ids[name]);

          for (const c of cases) {
            const key = `${route} ${c.field}`;
            walked.add(key);
            const documentedNull = nullCases.acceptsNull(c.schema);
            if (NULL_MEANS[key]) continue;
            // a null the document accepts is a meaning someone gave it: it belongs in NULL_MEANS, with why
            if (documentedNull) problems.push(`${key}: the document accepts null here, NULL_MEANS does not say why`);
            if (!validate(c.valid)) {
              problems.push(`${key}: the body around it is not valid: ${ajv.errorsText(validate.errors)}`);
              continue;
            }
            const response = await fetch(url, {
              method: verb.toUpperCase(),
              headers: { ...world.headers, 'content-type': 'application/json' },
              body: JSON.stringify(c.body),
              signal: AbortSignal.timeout(patient(5000)),
            });
            sent++;
            const text = await response.text();
            let body: Json = text;
            try {
              body = JSON.parse(text);
            } catch {
              // not JSON: the problem below shows the text
            }
            const problem = problemOf(route, c, response.status, body, response.headers.get('x-correlation-id'));
            if (problem) problems.push(problem);
          }
        }
      }

      expect(problems).toEqual([]);
      // the allow-list names real fields only, and the walk reached what the issue named
      expect(Object.keys(NULL_MEANS).filter((key) => !walked.has(key))).toEqual([]);
      expect([...walked]).toEqual(
        expect.arrayContaining([
          'POST /v1/webhook-endpoints headers',
          'POST /v1/agents/{agentId}/branches/{branchId}/tools headers',
          'POST /v1/agents/{agentId}/branches/{branchId}/tests turns.0.expect.topic',
          'PUT /v1/agents/{agentId}/branches/{branchId}/settings environment_models.live.temperature',
        ]),
      );
      expect(sent).toBeGreaterThan(50);
    },
    patient(120_000),
  );
});
