import type { TurnData } from '../conversations/conversation.events';

/** Logged metrics as the API shows them: one value, or every value when logged more than once. */
export function metricsObject(
  metrics: ReadonlyArray<{ name: string; value: string }>,
): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  for (const { name, value } of metrics) {
    const seen = out[name];
    out[name] = seen === undefined ? value : Array.isArray(seen) ? [...seen, value] : [seen, value];
  }
  return out;
}

/** The debug chat turn object of interface.md. */
export function debugChatTurn(
  conversationId: string,
  turn: Omit<TurnData, 'turnIndex'>,
  state: Readonly<Record<string, unknown>>,
  metrics: ReadonlyArray<{ name: string; value: string }>,
  handoffDestination: string,
  ended: boolean,
) {
  return {
    conversationId,
    userInput: turn.userInput,
    response: turn.agentResponse,
    metadata: {
      state,
      currentNode: turn.currentNode,
      nodeTrace: turn.nodeTrace,
      metrics: metricsObject(metrics),
      functionEvents: turn.functionEvents,
      handoffDestination,
      retrievedTopics: turn.retrievedTopics,
      retrievedSources: turn.retrievedSources,
      citedTopic: turn.citedTopic,
      inFlow: '',
      inStep: '',
      llmRequests: turn.llmRequests,
      asrLangCode: turn.asrLangCode,
      ttsLangCode: turn.ttsLangCode,
      ...(turn.retrieval ? { retrieval: turn.retrieval } : {}),
    },
    conversationEnded: ended,
    delayedResponse: turn.delayedResponse,
  };
}
