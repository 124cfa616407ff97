import type { Tool } from '../../agents/agent-tools.events';
import type { ActionInput, ActionOutcome } from '../actions/run-actions';
import type { ChatMessage, Completion, ToolSpec } from '../llm/llm-client';

/** A deployment's agent tools as the model sees them: their description and JSON Schema (contract §20). */
export function modelToolSpecs(tools: readonly Tool[] | undefined): ToolSpec[] {
  return (tools ?? []).map((t) => ({ name: t.name, description: t.description, parameters: t.parameters }));
}

/** The model's calls of agent tools, as `call_function` actions (the other calls are the actions of contract §6). */
export function splitToolCalls(
  calls: Completion['toolCalls'],
  tools: readonly Tool[] | undefined,
): { toolActions: ActionInput[]; toolCallIds: string[]; actions: ActionInput[] } {
  const names = new Set((tools ?? []).map((t) => t.name));
  const ofTools = calls.filter((c) => names.has(c.name));
  return {
    toolActions: ofTools.map((c) => ({ name: 'call_function', args: { ...c.args, name: c.name } })),
    toolCallIds: ofTools.map((c) => c.id),
    actions: calls.filter((c) => !names.has(c.name)).map((c) => ({ name: c.name, args: c.args })),
  };
}

/**
 * The follow-up of one round trip: the model's message with its tool calls, then each call's
 * answer (the tool's JSON, or its error), so the model writes the final answer from them.
 */
export function toolResultMessages(
  completion: Completion,
  toolCallIds: string[],
  outcome: ActionOutcome,
): ChatMessage[] {
  const called = completion.toolCalls.filter((c) => toolCallIds.includes(c.id));
  return [
    {
      role: 'assistant',
      content: completion.text,
      tool_calls: called.map((c) => ({
        id: c.id,
        type: 'function',
        function: { name: c.name, arguments: JSON.stringify(c.args) },
      })),
    },
    ...called.map((c, i): ChatMessage => {
      const event = outcome.functionEvents[i];
      const content =
        event?.status === 'ok'
          ? JSON.stringify(event.result ?? {})
          : JSON.stringify({ error: event?.error ?? 'failed' });
      return { role: 'tool', tool_call_id: c.id, content };
    }),
  ];
}

/** Two runs of one turn as one outcome: `second` ran on the state `first` left. */
export function joinOutcomes(first: ActionOutcome | null, second: ActionOutcome | null): ActionOutcome | null {
  if (!first) return second;
  if (!second) return first;
  return {
    state: second.state,
    stateChanges: { ...first.stateChanges, ...second.stateChanges },
    metrics: [...first.metrics, ...second.metrics],
    functionEvents: [...first.functionEvents, ...second.functionEvents],
    handoff: first.handoff ?? second.handoff,
    ended: first.ended || second.ended,
    awaitedEvents: [...first.awaitedEvents, ...second.awaitedEvents],
    sms: [...first.sms, ...second.sms],
    functionErrors: first.functionErrors + second.functionErrors,
    fallback: first.fallback ?? second.fallback,
  };
}
