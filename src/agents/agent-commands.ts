import { Injectable } from '@nestjs/common';
import { Clock } from '../platform/clock/clock';
import type { CommandContext } from '../commands/command-context';
import type { CommandHandler } from '../commands/command-handler';
import { Commands } from '../commands/commands';
import { ReadModels } from '../read-models/read-models.service';
import { agentDecider, type AgentCommand, type AgentState } from './agent.decider';
import { agentStream, type AgentEvent } from './agent.events';
import { AGENTS_READ_MODEL } from '../../projections/agents/queries';
import { AGENT_TOOLS_READ_MODEL } from '../../projections/agent-tools/queries';
import { AGENT_TESTS_READ_MODEL } from '../../projections/agent-tests/queries';
import { AGENT_SETTINGS_READ_MODEL } from '../../projections/agent-settings/queries';

type WithoutNow<C> = C extends unknown ? Omit<C, 'now'> : never;

/** Sends a command to an agent's stream (cached fold) and waits until the read models of agent streams show it. */
@Injectable()
export class AgentCommands {
  /** the one handler of agent streams */
  private readonly agents: CommandHandler<AgentState, AgentCommand, AgentEvent>;

  constructor(
    commands: Commands,
    private readonly clock: Clock,
    private readonly readModels: ReadModels,
  ) {
    this.agents = commands.for(agentDecider, { cache: { capacity: 500 } });
  }

  async execute(
    agentId: string,
    command: WithoutNow<AgentCommand>,
    context: CommandContext,
  ): Promise<{ events: AgentEvent[]; state: AgentState }> {
    const full = { ...command, now: this.clock.nowIso() } as AgentCommand;
    const result = await this.agents.handle(agentStream(agentId), full, context);
    // agent-tests, agent-settings, agent-tools: a branch's test cases, settings and tools, and main's
    // after a merge, are read back at once too
    await this.readModels.waitFor(result.position, [
      AGENTS_READ_MODEL,
      AGENT_TESTS_READ_MODEL,
      AGENT_SETTINGS_READ_MODEL,
      AGENT_TOOLS_READ_MODEL,
    ]);
    return { events: result.events, state: result.state };
  }

  /** The agent as its stream says now (the cached fold, plus whatever another process appended since). */
  async current(agentId: string): Promise<AgentState> {
    return (await this.agents.load(agentStream(agentId))).state;
  }
}
