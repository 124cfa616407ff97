import { ref, routeDocs } from './route-docs';
import { arr, int, map, nullable, obj, oneOf, str, time } from './schema-helpers';
import { ReadModelsAdminController } from '../operations/read-models-admin.controller';
import { ClockController } from '../operations/clock.controller';
import { HealthController } from '../operations/health.controller';
import { MetricsController } from '../operations/metrics.controller';

const part = obj({ health: oneOf('ok', 'degraded') }, { name: str, deadLetters: nullable(int), error: nullable(str) });

export const healthDocs = routeDocs(HealthController, 'platform', {
  healthz: {
    summary: 'The process is up',
    security: [],
    responses: { 200: { description: 'Up', schema: obj({ status: { const: 'ok' } }) } },
  },
  readyz: {
    summary: 'The store answers and every read model serves within READY_MAX_LAG_EVENTS of the log',
    security: [],
    responses: {
      200: {
        description: 'Ready (possibly `degraded`: some events dead-lettered)',
        schema: obj(
          {
            status: oneOf('ready'),
            health: oneOf('ok', 'degraded'),
            eventStore: map(),
            projections: arr(part),
            processManagers: arr(part),
            timers: arr(part),
          },
          {
            // where the process runs calls: the voice activity detector in use (docs/voice.md)
            voice: obj({}, { vad: oneOf('silero', 'energy') }),
          },
        ),
      },
      503: {
        description: 'Not ready: the store fails or a read model lags',
        schema: obj({ status: oneOf('not_ready'), health: str, eventStore: map(), projections: arr(part) }),
      },
    },
  },
});

export const metricsDocs = routeDocs(MetricsController, 'platform', {
  scrape: {
    summary: 'Prometheus metrics (operator token unless METRICS_PUBLIC=1)',
    security: [{ operatorToken: [] }, {}],
    errors: [401],
    responses: { 200: { description: 'Prometheus text format', contentType: 'text/plain', schema: str } },
  },
});

export const clockDocs = routeDocs(ClockController, 'platform', {
  advance: {
    summary: 'Move the test clock (only with PARLEY_TEST_CLOCK=1) and run the timers that fell due',
    example: { seconds: 3600 },
    responses: { 200: { description: 'The platform time now', schema: obj({ now: time }) } },
  },
});

const rebuildJob = obj({
  name: str,
  state: oneOf('running', 'done', 'failed'),
  startedAt: time,
  finishedAt: nullable(time),
  report: nullable(
    obj({ name: str, version: int, generation: int, events: int, deadLettered: int, ms: { type: 'number' } }),
  ),
  error: nullable(str),
});

export const readModelsAdminDocs = routeDocs(
  ReadModelsAdminController,
  'operator',
  {
    status: {
      summary:
        'Read models: what each serves and its lag, every generation (a building one shows a rebuild), the rebuilds asked for',
      responses: {
        200: {
          description: 'The read side of this process',
          schema: obj({
            events: nullable(int),
            readModels: arr(
              obj({
                name: str,
                version: int,
                generation: nullable(int),
                state: oneOf('starting', 'building', 'serving', 'failed', 'stopped'),
                role: oneOf('leader', 'follower'),
                position: str,
                error: nullable(str),
                lagEvents: nullable(int),
                deadLetters: nullable(int),
                degraded: { type: 'boolean' },
              }),
            ),
            generations: arr(
              obj({
                name: str,
                version: int,
                generation: int,
                status: str,
                current: { type: 'boolean' },
                position: str,
                lagEvents: nullable(int),
              }),
            ),
            rebuilds: arr(ref('RebuildJob')),
          }),
        },
      },
    },
    rebuild: {
      summary: 'Rebuild a read model from the log beside the live one, then switch to it (runs in the background)',
      errors: [404, 409],
      responses: { 202: { description: 'The rebuild, under way', schema: ref('RebuildJob') } },
    },
    listDeadLetters: {
      summary: 'The events read models and process managers, and the timers, set aside',
      query: [
        { name: 'status', schema: oneOf('open', 'retry', 'resolved', 'all'), description: 'default open' },
        { name: 'name', schema: str, description: 'one consumer' },
      ],
      responses: {
        200: {
          description: 'The dead letters',
          schema: obj({
            deadLetters: arr(
              obj({
                kind: oneOf('projection', 'process-manager', 'timer'),
                name: str,
                position: str,
                version: nullable(int),
                generation: nullable(int),
                streamId: str,
                eventId: str,
                eventType: str,
                error: str,
                firstFailedAt: str,
                lastFailedAt: str,
                attempts: int,
                status: oneOf('open', 'retry', 'resolved'),
                retriedAt: nullable(str),
                resolvedAt: nullable(str),
              }),
            ),
          }),
        },
      },
    },
  },
  { RebuildJob: rebuildJob },
);
