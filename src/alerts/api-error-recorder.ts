import { Inject, Injectable } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import type { Logger } from 'pino';
import { EVENT_STORE, type EventStore } from '../event-store/event-store.port';
import { AGENT_DIRECTORY, type AgentDirectory } from '../platform/auth/agent-directory';
import { Clock } from '../platform/clock/clock';
import { LOGGER } from '../platform/logging/logger';
import { uuidv7 } from '../platform/ids/ids';
import { tryParseAgentId } from '../platform/ids/prefixed-ids';
import { apiErrorsStream, type ApiErrorEvent } from './api-error.events';

/** Path parameters that name the project a route serves. */
const PROJECT_PARAMS = ['agentId', 'projectId'];

/**
 * Records each 5xx answer of a project's route as an event, so alert rules on `api_errors` count
 * the platform's own failures as well as the agent's. Never delays or fails the answer: the append
 * runs after, and a failure to record is logged.
 */
@Injectable()
export class ApiErrorRecorder {
  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(AGENT_DIRECTORY) private readonly agents: AgentDirectory,
    private readonly clock: Clock,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  record(request: FastifyRequest, status: number): void {
    if (status < 500) return;
    const params = (request.params ?? {}) as Record<string, unknown>;
    const raw = PROJECT_PARAMS.map((name) => params[name]).find((v) => typeof v === 'string');
    const agentId = tryParseAgentId(raw);
    if (!agentId) return;
    const owner = this.agents.accountOf(agentId);
    if (owner instanceof Promise)
      owner
        .then((accountId) => this.append(request, status, agentId, accountId))
        .catch((error: unknown) =>
          this.logger.warn({ err: error, agentId }, 'could not record an API error for alerting'),
        );
    else this.append(request, status, agentId, owner);
  }

  private append(request: FastifyRequest, status: number, agentId: string, accountId: string | null): void {
    if (!accountId) return;
    const at = this.clock.nowIso();
    const event: ApiErrorEvent = {
      type: 'ApiErrorRecorded',
      data: { accountId, agentId, route: request.routeOptions.url ?? '', method: request.method, status, at },
    };
    this.store
      .append(apiErrorsStream(agentId), [
        {
          id: uuidv7(),
          type: event.type,
          data: event.data,
          metadata: {
            schemaVersion: 1,
            actor: 'system:api',
            correlationId: String(request.id),
            causationId: null,
            occurredAt: at,
          },
        },
      ])
      .catch((error: unknown) =>
        this.logger.warn({ err: error, agentId }, 'could not record an API error for alerting'),
      );
  }
}
