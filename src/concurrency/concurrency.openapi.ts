import { routeDocs } from '../openapi/route-docs';
import { arr, int, obj, oneOf, str, time } from '../openapi/schema-helpers';
import { ConcurrencyController } from './concurrency.controller';
import { CHANNELS } from './concurrency-query';

const interval = obj(
  { time, max_concurrent_conversations: int },
  { variant_id: str, variant_name: str, language: str, phone_number: str, channel: str },
);

export const concurrencyDocs = routeDocs(ConcurrencyController, 'concurrency', {
  series: {
    summary: 'Concurrent conversations per 5 minutes',
    description:
      'One interval per 5 minutes in ascending time (0 where nothing ran); with `slice_by`, one interval ' +
      "per time and slice value that had a conversation, with that slice's fields.",
    query: [
      { name: 'start_time', required: true, description: 'ISO 8601; rounded down to a 5-minute mark', schema: time },
      { name: 'end_time', required: true, description: 'at most 7 days after start_time; rounded up', schema: time },
      { name: 'client_env', description: 'default live', schema: oneOf('sandbox', 'pre-release', 'live') },
      { name: 'variant_id', description: 'not with variant_name', schema: str },
      { name: 'variant_name', description: 'not with variant_id', schema: str },
      { name: 'language', schema: str },
      { name: 'phone_number', schema: str },
      { name: 'channel', repeated: true, schema: oneOf(...CHANNELS) },
      { name: 'slice_by', schema: oneOf('variant', 'language', 'phone_number', 'channel') },
    ],
    responses: {
      200: {
        description: 'The series',
        schema: obj({ account_id: str, project_id: str, intervals: arr(interval) }),
      },
    },
  },
});
