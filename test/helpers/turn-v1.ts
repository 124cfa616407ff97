import type { TurnData } from '../../src/conversations/conversation.events';

/**
 * A turn as builds before the LLM adapter stored it: TurnRecorded schema version 1, no `apiErrors`.
 * What the upcaster's tests write to the log, to read it back as version 2.
 */
export function turnV1(turnIndex: number, userInput: string, agentResponse = 'ok'): Omit<TurnData, 'apiErrors'> {
  const at = '2026-01-01T00:00:00.000Z';
  return {
    turnIndex,
    userInput,
    userInputAt: at,
    agentResponse,
    agentResponseAt: at,
    bargeIn: false,
    isSilence: false,
    isOod: false,
    intents: [],
    entities: {},
    retrievedTopics: [],
    retrievedSources: [],
    citedTopic: '',
    currentNode: '',
    nodeTrace: [],
    functionEvents: [],
    functionErrors: 0,
    llmRequests: [],
    latency: { total_s: 0, stages: {} },
    asrLangCode: 'en-GB',
    ttsLangCode: 'en-GB',
    inputMetadata: {},
    delayedResponse: false,
  };
}
