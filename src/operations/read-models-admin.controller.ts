import { Controller, Get, HttpCode, Inject, Param, Post, Query, UseGuards } from '@nestjs/common';
import { EVENT_STORE, type EventStore } from '../event-store/event-store.port';
import { START } from '../event-store/position';
import { badRequest } from '../platform/errors/domain-error';
import { OperatorGuard } from '../platform/operator/operator.guard';
import { DeadLetterStore } from '../subscriptions/dead-letters';
import { ReadModels } from '../read-models/read-models.service';
import { RebuildJobs } from '../read-models/generations/rebuild-jobs';

const STATUSES = ['open', 'retry', 'resolved', 'all'] as const;

/**
 * The operator's view of the read side over HTTP (what `npm run projections` shows on the command
 * line), for Studio's operator pages: status and lag, dead letters, and a rebuild with progress.
 */
@Controller('admin/v1')
@UseGuards(OperatorGuard)
export class ReadModelsAdminController {
  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    private readonly readModels: ReadModels,
    private readonly deadLetters: DeadLetterStore,
    private readonly rebuilds: RebuildJobs,
  ) {}

  /** What each read model serves, every generation the registry knows (a building one shows a rebuild's progress), and the rebuilds asked for. */
  @Get('read-models')
  async status() {
    const [readModels, generations, events] = await Promise.all([
      this.readModels.status(),
      this.rebuilds.generations(),
      this.store.countAfter(START),
    ]);
    return {
      events,
      readModels,
      // the file is where the generation lives on the server's disk: not the page's business
      generations: generations.map(({ file: _file, ...generation }) => generation),
      rebuilds: this.rebuilds.list(),
    };
  }

  @Post('read-models/:name/rebuild')
  @HttpCode(202)
  rebuild(@Param('name') name: string) {
    return this.rebuilds.start(name);
  }

  @Get('dead-letters')
  async listDeadLetters(@Query('status') status?: string, @Query('name') name?: string) {
    if (status !== undefined && !(STATUSES as readonly string[]).includes(status))
      throw badRequest('INVALID_PARAMETER', `status must be one of ${STATUSES.join(', ')}`);
    if (name !== undefined && (typeof name !== 'string' || name.length > 200))
      throw badRequest('INVALID_PARAMETER', 'name must be a read model, process manager or timer owner name');
    return {
      deadLetters: await this.deadLetters.list({ status: status as (typeof STATUSES)[number] | undefined, name }),
    };
  }
}
