import { routeDocs } from '../openapi/route-docs';
import { int, obj } from '../openapi/schema-helpers';
import { CallLimitsController } from './call-limits.controller';

const limits = obj({ concurrent_calls: int, in_progress: int });

export const callLimitsDocs = routeDocs(CallLimitsController, 'concurrency', {
  set: {
    summary: "Set the account's limit of concurrent calls (outbound and inbound)",
    errors: [404],
    example: { concurrent_calls: 20 },
    responses: { 200: { description: 'The limit and the calls holding a line now', schema: limits } },
  },
  get: {
    summary: "The account's limit of concurrent calls, and the calls holding a line now",
    responses: { 200: { description: 'The limit', schema: limits } },
  },
});
