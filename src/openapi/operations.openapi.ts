import { routeDocs } from './route-docs';
import { arr, int, map, nullable, obj, oneOf, str, time } from './schema-helpers';
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
        schema: obj({
          status: oneOf('ready'),
          health: oneOf('ok', 'degraded'),
          eventStore: map(),
          projections: arr(part),
          processManagers: arr(part),
          timers: arr(part),
        }),
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
