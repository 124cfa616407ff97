import { Inject, Injectable } from '@nestjs/common';
import { agentsQueries, type AgentsQueries } from '../../projections/agents/queries';
import { keyCanReachAgent, type KeyRecord } from '../platform/auth/key-principal';
import { Clock } from '../platform/clock/clock';
import type { CommandContext } from '../commands/command-context';
import { badRequest } from '../platform/errors/domain-error';
import { IdGenerator } from '../platform/ids/ids';
import { ReadModels } from '../read-models/read-models.service';
import { dniPoolStream, reservationAt, type Reservation } from './dni-pool.decider';
import { DNI_POOL_COMMANDS, type DniPoolCommands } from './dni-pool-commands';
import type { DniReservationDto } from './dto/dni-reservation.dto';

const DEFAULT_TTL_S = 900;

/** DNI reservations (contract §18): a number of the agent's pool held for one visitor's attributes. */
@Injectable()
export class DniService {
  private readonly agents: AgentsQueries;

  constructor(
    @Inject(DNI_POOL_COMMANDS) private readonly pools: DniPoolCommands,
    private readonly clock: Clock,
    private readonly ids: IdGenerator,
    readModels: ReadModels,
  ) {
    this.agents = agentsQueries(readModels);
  }

  async reserve(key: KeyRecord, dto: DniReservationDto, context: CommandContext) {
    const agentId = await this.soleAgentOf(key);
    const environment = dto.client_env ?? 'live';
    const { events } = await this.pools.handle(
      dniPoolStream(agentId, environment),
      {
        type: 'Reserve',
        agentId,
        environment,
        reservationId: this.ids.uuid(),
        attributes: dto.attributes,
        ttlS: dto.ttl_s ?? DEFAULT_TTL_S,
        now: this.clock.nowIso(),
      },
      context,
    );
    const reserved = events[0] as Extract<(typeof events)[number], { type: 'DniNumberReserved' }>;
    return { dni: reserved.data.number, expires_at: reserved.data.expiresAt };
  }

  /** The reservation holding a pool number now, read from the log (another process may have made it). */
  async reservationOf(agentId: string, environment: string, number: string): Promise<Reservation | null> {
    const { state } = await this.pools.load(dniPoolStream(agentId, environment));
    return reservationAt(state, number, this.clock.nowIso());
  }

  /** A reservation names no agent: the key must reach exactly one (contract §18). */
  private async soleAgentOf(key: KeyRecord): Promise<string> {
    const agents = (await this.agents.agentsOf(key.accountId))
      .filter((agent) => agent.deletedAt === null)
      .map((agent) => agent.id)
      .filter((id) => keyCanReachAgent(key, id));
    if (agents.length !== 1)
      throw badRequest(
        'DNI_AGENT_AMBIGUOUS',
        `a DNI reservation needs a key that reaches exactly one agent; this one reaches ${agents.length}`,
      );
    return agents[0];
  }
}
