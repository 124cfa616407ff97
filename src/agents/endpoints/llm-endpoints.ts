import { Injectable } from '@nestjs/common';
import { Commands } from '../../commands/commands';
import { ServerSecret } from '../../platform/auth/server-secret';
import { Clock } from '../../platform/clock/clock';
import { LLM_ENDPOINTS_STREAM, type LlmEndpointRecord } from './llm-endpoint.events';
import { endpointsDecider, SealedEndpoints, type EndpointList } from './sealed-endpoints';

const LLM_ENDPOINTS: EndpointList<'LlmEndpoint'> = {
  eventPrefix: 'LlmEndpoint',
  errorPrefix: 'LLM_ENDPOINT',
  noun: 'model endpoint',
  stream: LLM_ENDPOINTS_STREAM,
};

/** Names are unique; an endpoint is replaced by deleting it and adding it again (a key rotation). */
const llmEndpointsDecider = endpointsDecider<'LlmEndpoint', LlmEndpointRecord>(LLM_ENDPOINTS);

/**
 * The operator's list of model endpoints an agent's `model` settings may name
 * (sealed-endpoints.ts: the key sealed before it reaches the event, never returned).
 */
@Injectable()
export class LlmEndpoints extends SealedEndpoints<'LlmEndpoint', LlmEndpointRecord> {
  constructor(commands: Commands, clock: Clock, secret: ServerSecret) {
    super(LLM_ENDPOINTS, llmEndpointsDecider, commands, clock, secret);
  }

  protected recordOf() {
    return {};
  }

  protected viewOf() {
    return {};
  }
}
