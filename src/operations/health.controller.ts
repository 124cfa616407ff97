import { Controller, Get, HttpCode, Inject, Optional, Res } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { EVENT_STORE, type EventStore } from '../event-store/event-store.port';
import { ProcessManagers } from '../process-managers/process-managers';
import { ReadModels } from '../read-models/read-models.service';
import { Timers } from '../process-managers/timers';
import { CONFIG, type Config } from '../platform/config/config';
import { ComponentStatus } from '../platform/health/component-status';

@Controller()
export class HealthController {
  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    private readonly readModels: ReadModels,
    private readonly processManagers: ProcessManagers,
    private readonly timers: Timers,
    @Inject(CONFIG) private readonly config: Config,
    @Optional() @Inject(ComponentStatus) private readonly components: ComponentStatus | null = null,
  ) {}

  /** The process is up and answering. */
  @Get('healthz')
  @HttpCode(200)
  healthz() {
    return { status: 'ok' };
  }

  /**
   * The store answers and every read model serves within READY_MAX_LAG_EVENTS of the log. Process
   * managers are listed for operators but do not decide readiness: reads stay correct while one lags.
   * A read model, manager or timer owner with dead letters is `degraded`: it serves and moves on without the
   * events it set aside, so the process stays ready (200) and says so (docs/dead-letters.md).
   */
  @Get('readyz')
  async readyz(@Res({ passthrough: true }) reply: FastifyReply) {
    let head: string | null = null;
    let storeError: string | null = null;
    try {
      head = await this.store.headPosition();
    } catch (error) {
      storeError = error instanceof Error ? error.message : String(error);
    }
    const projections = storeError ? [] : await this.readModels.status();
    const processManagers = storeError ? [] : await this.processManagers.report();
    const timers = await this.timers.report();
    const lagging = projections.filter(
      (p) => p.state !== 'serving' || p.lagEvents === null || p.lagEvents > this.config.readyMaxLagEvents,
    );
    const ready = storeError === null && lagging.length === 0;
    const degraded =
      projections.some((p) => p.degraded) ||
      processManagers.some((m) => (m.deadLetters ?? 0) > 0) ||
      timers.some((t) => (t.deadLetters ?? 0) > 0);
    reply.status(ready ? 200 : 503);
    return {
      status: ready ? 'ready' : 'not_ready',
      /** `degraded`: ready, but some events were dead-lettered (each entry's deadLetters counts them) */
      health: degraded ? 'degraded' : 'ok',
      eventStore: storeError ? { status: 'error', error: storeError } : { status: 'open', head },
      projections: projections.map((p) => ({
        name: p.name,
        version: p.version,
        generation: p.generation,
        state: p.state,
        /** in a scaled set, `leader` applies the read model and `follower` serves it */
        role: p.role,
        position: p.position,
        lagEvents: p.lagEvents,
        error: p.error,
        health: p.degraded ? 'degraded' : 'ok',
        deadLetters: p.deadLetters,
      })),
      processManagers: processManagers.map((m) => ({
        name: m.name,
        active: m.active,
        position: m.position,
        lagEvents: m.lagEvents,
        error: m.error,
        health: (m.deadLetters ?? 0) > 0 ? 'degraded' : 'ok',
        deadLetters: m.deadLetters,
      })),
      /** each owner of timers this process fires; deadLetters counts its dead timers */
      timers: timers.map((t) => ({
        owner: t.owner,
        health: (t.deadLetters ?? 0) > 0 ? 'degraded' : 'ok',
        deadLetters: t.deadLetters,
      })),
      /** what optional parts run as, e.g. `voice.vad`: `silero`, or `energy` when the model could not load */
      ...this.components?.report(),
    };
  }
}
