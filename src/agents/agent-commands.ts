import { Inject, Injectable } from '@nestjs/common';
import { EVENT_STORE, type EventStore } from '../event-store/event-store.port';
import { Clock } from '../platform/clock/clock';
import { AggregateCache } from '../commands/aggregate-cache';
import type { CommandContext } from '../commands/command-context';
import { handleCommand } from '../commands/command-handler';
import { ReadModels } from '../read-models/read-models.service';
import { agentDecider, type AgentCommand, type AgentState } from './agent.decider';
import { agentStream, type AgentEvent } from './agent.events';

type WithoutNow<C> = C extends unknown ? Omit<C, 'now'> : never;

/** Sends a command to an agent's stream (cached fold) and waits until the read models of agent streams show it. */
@Injectable()
export class AgentCommands {
  private readonly cache = new AggregateCache(500);

  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    private readonly clock: Clock,
    private readonly readModels: ReadModels,
  ) {}

  async execute(
    agentId: string,
    command: WithoutNow<AgentCommand>,
    context: CommandContext,
  ): Promise<{ events: AgentEvent[]; state: AgentState }> {
    const full = { ...command, now: this.clock.nowIso() } as AgentCommand;
    const result = await handleCommand(
      this.store,
      this.clock,
      agentStream(agentId),
      agentDecider,
      full,
      context,
      this.cache,
    );
    // agent-tests, agent-settings, agent-tools: a branch's test cases, settings and tools, and main's
    // after a merge, are read back at once too
    await this.readModels.waitFor(result.position, ['agents', 'agent-tests', 'agent-settings', 'agent-tools']);
    return { events: result.events, state: result.state };
  }
}
