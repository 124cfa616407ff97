import { routeDocs } from '../openapi/route-docs';
import { arr, int, nullable, num, obj, oneOf, str, time } from '../openapi/schema-helpers';
import { AnalyticsController } from './analytics.controller';

const percentiles = obj({ p50: nullable(num), p90: nullable(num) });
const figures = {
  conversations: int,
  contained: int,
  handoffs: int,
  abandoned: int,
  not_connected: int,
  turns: int,
  ood_turns: int,
  duration_s: percentiles,
  first_response_ms: percentiles,
};

export const analyticsDocs = routeDocs(AnalyticsController, 'analytics', {
  series: {
    summary: "A project's figures in hour or day buckets, with its top topics and unanswered inputs",
    description:
      'Buckets start on hour or UTC-day marks, the first at or before `start_time`; empty ones are present ' +
      'with zeros and `null` percentiles. A conversation counts in the bucket it started in. `contained`: ended ' +
      'without handoff after at least one user turn; `abandoned`: the user left before the first answer. ' +
      '`unanswered` (user inputs that cited no topic, normalised, most frequent first, at most 50) is empty ' +
      "unless the project's data access shows transcripts. Test conversations are not counted.",
    errors: [404],
    query: [
      { name: 'start_time', description: 'ISO 8601 (default: 7 days before end_time)', schema: str },
      { name: 'end_time', description: 'ISO 8601, exclusive (default: now)', schema: str },
      {
        name: 'granularity',
        description: 'day (default; range ≤ 92 days) or hour (≤ 7 days)',
        schema: oneOf('hour', 'day'),
      },
      { name: 'client_env', description: 'default live', schema: oneOf('sandbox', 'pre-release', 'live') },
      { name: 'channel', repeated: true, schema: oneOf('CHAT', 'WEBCHAT', 'VOICE-SIP', 'SMS') },
    ],
    responses: {
      200: {
        description: 'The series',
        schema: obj({
          account_id: str,
          project_id: str,
          granularity: oneOf('hour', 'day'),
          buckets: arr(obj({ time, ...figures })),
          totals: obj(figures),
          top_topics: arr(obj({ topic: str, turns: int })),
          unanswered: arr(obj({ text: str, count: int, last_at: time, conversation_id: str })),
        }),
      },
    },
  },
});
