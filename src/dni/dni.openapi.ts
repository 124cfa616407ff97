import { routeDocs } from '../openapi/route-docs';
import { obj, str, time } from '../openapi/schema-helpers';
import { DniController } from './dni.controller';

export const dniDocs = routeDocs(DniController, 'inbound-calls', {
  reserve: {
    summary: "Reserve a number of the agent's DNI pool for one visitor's attributes",
    description:
      'The key must reach exactly one agent (else 400 `DNI_AGENT_AMBIGUOUS`). A call to the number before ' +
      '`expires_at` starts with the attributes in state under `dni`. No number free: 503 ' +
      '`DNI_POOL_EXHAUSTED` with `Retry-After`.',
    errors: [503],
    example: { attributes: { shared_id: 'visitor-42', campaign: 'spring' }, ttl_s: 900 },
    responses: {
      201: { description: 'The number and when it returns to the pool', schema: obj({ dni: str, expires_at: time }) },
    },
  },
});
