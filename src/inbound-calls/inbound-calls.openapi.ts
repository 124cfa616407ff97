import { routeDocs } from '../openapi/route-docs';
import { nullable, obj, oneOf, str } from '../openapi/schema-helpers';
import { InboundCallsController } from './inbound-calls.controller';

const call = {
  call_sid: str,
  status: oneOf('in-progress', 'ended', 'failed'),
  reason: nullable(oneOf('concurrent-call-limit', 'no-deployment', 'cancelled')),
};
const answer = obj(call);
const status = obj({ ...call, from: str, to: str });

export const inboundCallsDocs = routeDocs(InboundCallsController, 'inbound-calls', {
  receive: {
    summary: 'Simulate an inbound call on the embedded carrier',
    description:
      'The agent of the number greets, each utterance is a user turn, then the caller hangs up (unless ' +
      '`hang_up: false`). A call beyond the account limit, or to an environment with no deployment, is ' +
      'refused: 201 with `status: "failed"` and the `reason`.',
    errors: [404],
    example: { from: '+15550001111', to: '+15550002222', utterances: ['when are you open'] },
    responses: { 201: { description: 'The call (its `call_sid` is its conversation id)', schema: answer } },
  },
  status: {
    summary: 'An inbound call: in progress, ended or failed',
    errors: [404],
    responses: { 200: { description: 'The call', schema: status } },
  },
  hangUp: {
    summary: 'The caller hangs up a call left open',
    errors: [404],
    responses: { 200: { description: 'The call, ended', schema: status } },
  },
});
