import { conflict, notFound } from '../platform/errors/domain-error';
import type { AgentToolEvent, SealedToolSecret, Tool, ToolContent } from './agent-tools.events';
import type { Content } from './merge';

/** The part of a branch the tool commands read and write (agent.decider.ts's Branch has these fields). */
export interface ToolBranch {
  id: string;
  content: Content;
  /** tool id → name, to find a tool by id on this branch */
  toolNames?: ReadonlyMap<string, string>;
}

export type AgentToolCommand =
  /** `secret`: the agent's tool secret to issue when it has none yet (sealed by the service: the decider stays pure). */
  | { type: 'AddTool'; branchId: string; tool: Tool; secret: SealedToolSecret; now: string }
  | { type: 'EditTool'; branchId: string; toolId: string; changes: Partial<ToolContent>; now: string }
  | { type: 'RemoveTool'; branchId: string; toolId: string; now: string }
  | { type: 'RotateToolSecret'; secret: SealedToolSecret; now: string };

const TOOL_COMMANDS: ReadonlySet<string> = new Set(['AddTool', 'EditTool', 'RemoveTool', 'RotateToolSecret']);
export const isToolCommand = (command: { type: string }): command is AgentToolCommand =>
  TOOL_COMMANDS.has(command.type);

/** The names of a branch's tools by id (a new branch: its base's). */
export const toolNamesOf = (content: Content): ReadonlyMap<string, string> =>
  new Map([...(content.tools?.values() ?? [])].map((t) => [t.id, t.name] as const));

/** A branch with `tool` set (renamed from `previousName` when given). */
export function withTool<B extends ToolBranch>(branch: B, tool: Tool, previousName?: string): B {
  const tools = new Map(branch.content.tools ?? []);
  if (previousName !== undefined) tools.delete(previousName);
  tools.set(tool.name, tool);
  return {
    ...branch,
    content: { ...branch.content, tools },
    toolNames: new Map(branch.toolNames ?? toolNamesOf(branch.content)).set(tool.id, tool.name),
  };
}

export function withoutTool<B extends ToolBranch>(branch: B, toolId: string, name: string): B {
  const tools = new Map(branch.content.tools ?? []);
  tools.delete(name);
  const toolNames = new Map(branch.toolNames ?? toolNamesOf(branch.content));
  toolNames.delete(toolId);
  return { ...branch, content: { ...branch.content, tools }, toolNames };
}

const toolNameOn = (branch: ToolBranch, toolId: string) =>
  (branch.toolNames ?? toolNamesOf(branch.content)).get(toolId);

/**
 * Decides a tool command (contract §20) on an open branch `openBranch` returns (it refuses main and
 * merged branches as for topics). Names are unique per branch. The first tool of an agent also
 * issues the agent's tool secret, in the same append, so a deployed tool never lacks one.
 */
export function decideTool(
  command: AgentToolCommand,
  agent: { agentId: string; hasToolSecret: boolean },
  openBranch: (branchId: string) => ToolBranch,
): AgentToolEvent[] {
  const { agentId } = agent;
  switch (command.type) {
    case 'AddTool': {
      const branch = openBranch(command.branchId);
      if (branch.content.tools?.has(command.tool.name))
        throw conflict('TOOL_EXISTS', `a tool named ${command.tool.name} exists on this branch`);
      const events: AgentToolEvent[] = [
        { type: 'ToolAdded', data: { agentId, branchId: branch.id, tool: command.tool, addedAt: command.now } },
      ];
      if (!agent.hasToolSecret)
        events.push({
          type: 'ToolSecretIssued',
          data: { agentId, ...command.secret, rotated: false, issuedAt: command.now },
        });
      return events;
    }
    case 'EditTool': {
      const branch = openBranch(command.branchId);
      const name = toolNameOn(branch, command.toolId);
      if (name === undefined) throw notFound('TOOL_NOT_FOUND', 'tool not found');
      const current = branch.content.tools!.get(name)!;
      const changes = Object.fromEntries(Object.entries(command.changes).filter(([, v]) => v !== undefined));
      const tool: Tool = { ...current, ...changes, id: current.id };
      if (tool.name !== name && branch.content.tools!.has(tool.name))
        throw conflict('TOOL_EXISTS', `a tool named ${tool.name} exists on this branch`);
      return [{ type: 'ToolEdited', data: { agentId, branchId: branch.id, tool, editedAt: command.now } }];
    }
    case 'RemoveTool': {
      const branch = openBranch(command.branchId);
      const name = toolNameOn(branch, command.toolId);
      if (name === undefined) throw notFound('TOOL_NOT_FOUND', 'tool not found');
      return [
        {
          type: 'ToolRemoved',
          data: { agentId, branchId: branch.id, toolId: command.toolId, name, removedAt: command.now },
        },
      ];
    }
    case 'RotateToolSecret':
      return [
        {
          type: 'ToolSecretIssued',
          data: { agentId, ...command.secret, rotated: agent.hasToolSecret, issuedAt: command.now },
        },
      ];
  }
}
