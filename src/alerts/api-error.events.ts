import type { DomainEvent } from '../commands/decider';

/** The platform answered a project's request with a 5xx: an `api_errors` sample (contract §12). */
export type ApiErrorEvent = DomainEvent<
  'ApiErrorRecorded',
  { accountId: string; agentId: string; route: string; method: string; status: number; at: string }
>;

export const apiErrorsStream = (agentId: string) => `api-errors-${agentId}`;
