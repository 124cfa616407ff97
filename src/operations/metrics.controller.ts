import { Controller, Get, Inject, Req, Res } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { ProcessManagers } from '../process-managers/process-managers';
import { DeadLetterStore } from '../subscriptions/dead-letters';
import { ReadModels } from '../read-models/read-models.service';
import { Timers } from '../process-managers/timers';
import { AuthFailureThrottle } from '../platform/auth/auth-failure-throttle';
import { CONFIG, type Config } from '../platform/config/config';
import { OperatorToken } from '../platform/operator/operator-token';
import { Metrics } from '../platform/metrics/metrics';

/** GET /metrics, Prometheus text format: behind the operator token unless METRICS_PUBLIC=1. */
@Controller('metrics')
export class MetricsController {
  constructor(
    private readonly metrics: Metrics,
    private readonly readModels: ReadModels,
    private readonly processManagers: ProcessManagers,
    private readonly token: OperatorToken,
    private readonly deadLetters: DeadLetterStore,
    private readonly timers: Timers,
    @Inject(CONFIG) private readonly config: Config,
    private readonly failures: AuthFailureThrottle,
  ) {}

  @Get()
  async scrape(@Req() request: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply): Promise<string> {
    if (!this.config.metricsPublic) {
      const hint = 'missing or invalid operator token (header x-operator-token); or set METRICS_PUBLIC=1';
      this.failures.attempt(request.ip, () => this.token.verify(request.headers['x-operator-token'], hint));
    }
    // -1: further behind than the store counts cheaply (EventStoreDB: over 100 events)
    for (const status of await this.readModels.status())
      this.metrics.projectionLag.set({ projection: status.name }, status.lagEvents ?? -1);
    for (const manager of await this.processManagers.report()) {
      // a manager another process runs has no lag here: its series is that process's
      if (manager.active)
        this.metrics.processManagerLag.set({ process_manager: manager.name }, manager.lagEvents ?? -1);
      else this.metrics.processManagerLag.remove({ process_manager: manager.name });
    }
    // every consumer has a series, 0 when it has none open (an alert on > 0 sees it come and go)
    const open = await this.deadLetters.openCounts();
    for (const status of await this.readModels.status())
      this.metrics.openDeadLetters.set(
        { kind: 'projection', name: status.name },
        open.get(`projection:${status.name}`) ?? 0,
      );
    for (const manager of this.processManagers.status())
      this.metrics.openDeadLetters.set(
        { kind: 'process-manager', name: manager.name },
        open.get(`process-manager:${manager.name}`) ?? 0,
      );
    for (const owner of this.timers.owners())
      this.metrics.openDeadLetters.set({ kind: 'timer', name: owner }, open.get(`timer:${owner}`) ?? 0);
    const text = await this.metrics.registry.metrics();
    // set only on success: an error answers in the JSON envelope
    reply.header('content-type', this.metrics.registry.contentType);
    return text;
  }
}
