import type { Topic } from '../../agents/agent.events';
import type { ChatMessage, ToolSpec } from './llm-client';

/** The actions of contract §6 as tools the model may call; their arguments as strings. */
export const ACTION_TOOLS: ToolSpec[] = [
  {
    name: 'handoff',
    description: 'Hand the conversation to a human.',
    parameters: ['destination', 'reason', 'shared_id'],
  },
  { name: 'end_conversation', description: 'End the conversation.', parameters: [] },
  { name: 'set_state', description: 'Remember a value in the conversation state.', parameters: ['key', 'value'] },
  { name: 'log_metric', description: 'Log a custom metric.', parameters: ['name', 'value'] },
  {
    name: 'await_external_event',
    description: 'Start waiting for the result of an external workflow.',
    parameters: ['name'],
  },
  { name: 'send_sms', description: 'Send the user an SMS.', parameters: ['text'] },
  { name: 'call_function', description: 'Call a platform function.', parameters: ['name'] },
];

/** `behavior` is the system prompt; the retrieved topics are the context the answer may draw on. */
export function buildMessages(behavior: string, topics: Topic[], userText: string): ChatMessage[] {
  const context = topics.map((t) => `## ${t.name}\n${t.content}`).join('\n\n');
  return [
    { role: 'system', content: behavior || 'You are a helpful assistant.' },
    ...(context
      ? [{ role: 'system' as const, content: `Knowledge base topics relevant to the user's message:\n\n${context}` }]
      : []),
    { role: 'user', content: userText },
  ];
}
