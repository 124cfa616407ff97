import { Readable } from 'node:stream';
import { Controller, Get, Inject, Param, Query, Req, Res } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Logger } from 'pino';
import { DataAccessService } from '../accounts/data-access.service';
import { EVENT_STORE, type EventStore } from '../event-store/event-store.port';
import { keyOf, RequireApiKey } from '../platform/auth/key.guard';
import { parseAgentId } from '../platform/ids/prefixed-ids';
import { LOGGER } from '../platform/logging/logger';
import { MAX_PAGE_SCANNED, parseExportQuery } from './export-query';
import { projectEvents } from './project-events';

/**
 * A whole project's audit trail as NDJSON: one line per stored event of its conversations, in log
 * order, then one closing line `{"end": true, "next_cursor": ...}`. `next_cursor` null: the log was
 * read to its head. Any event line's `position` is a cursor too, so a cut-off answer resumes from
 * the last line received. Needs `conversations` outright, like `/conversations/{id}/events`.
 */
@Controller()
@RequireApiKey({ permission: 'conversations', account: 'accountId', agent: 'projectId' })
export class AuditExportController {
  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    private readonly dataAccess: DataAccessService,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  @Get('v3/:accountId/:projectId/events')
  async events(
    @Param('projectId') projectId: string,
    @Query() query: Record<string, unknown>,
    @Req() request: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ) {
    const agentId = parseAgentId(projectId);
    const { window, after, limit } = parseExportQuery(query);
    const access = { permissions: keyOf(request)!.permissions, config: await this.dataAccess.config(agentId) };
    const pages = projectEvents(this.store, agentId, access, window, after, {
      maxEvents: limit,
      maxScanned: MAX_PAGE_SCANNED,
    });
    const logger = this.logger;
    async function* lines() {
      try {
        for (;;) {
          const next = await pages.next();
          if (next.done) {
            yield `${JSON.stringify({ end: true, next_cursor: next.value.next })}\n`;
            return;
          }
          yield `${JSON.stringify(next.value)}\n`;
        }
      } catch (error) {
        // the status is sent: the missing end line tells the client to resume from its last position
        logger.error({ err: error, agentId }, 'audit export failed mid-answer');
      }
    }
    reply.header('content-type', 'application/x-ndjson; charset=utf-8');
    return Readable.from(lines());
  }
}
