import type { Decider } from '../../commands/decider';
import { conflict, notFound } from '../../platform/errors/domain-error';
import type { LlmEndpointEvent, LlmEndpointRecord } from './llm-endpoint.events';

export interface LlmEndpointsState {
  endpoints: ReadonlyMap<string, LlmEndpointRecord>;
}

export type LlmEndpointCommand =
  | { type: 'AddLlmEndpoint'; name: string; baseUrl: string; sealedApiKey: string | null; now: string }
  | { type: 'DeleteLlmEndpoint'; name: string; now: string };

const llmEndpointErrors = {
  exists: (name: string) => conflict('LLM_ENDPOINT_EXISTS', `an endpoint named ${name} exists; delete it first`),
  notFound: () => notFound('LLM_ENDPOINT_NOT_FOUND', 'no model endpoint has that name'),
};

/** Names are unique; an endpoint is replaced by deleting it and adding it again (a key rotation). */
export const llmEndpointsDecider: Decider<LlmEndpointsState, LlmEndpointCommand, LlmEndpointEvent> = {
  initialState: () => ({ endpoints: new Map() }),
  evolve(state, event) {
    const endpoints = new Map(state.endpoints);
    if (event.type === 'LlmEndpointAdded') endpoints.set(event.data.name, event.data);
    else endpoints.delete(event.data.name);
    return { endpoints };
  },
  decide(command, state) {
    switch (command.type) {
      case 'AddLlmEndpoint': {
        if (state.endpoints.has(command.name)) throw llmEndpointErrors.exists(command.name);
        const { name, baseUrl, sealedApiKey, now } = command;
        return [{ type: 'LlmEndpointAdded', data: { name, baseUrl, sealedApiKey, addedAt: now } }];
      }
      case 'DeleteLlmEndpoint':
        if (!state.endpoints.has(command.name)) throw llmEndpointErrors.notFound();
        return [{ type: 'LlmEndpointDeleted', data: { name: command.name, deletedAt: command.now } }];
    }
  },
};
