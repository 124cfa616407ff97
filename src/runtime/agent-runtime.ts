import type { ServedContent } from '../agents/deployment-content';
import type { TurnEffects } from '../conversations/conversation.decider';
import type { TurnData } from '../conversations/conversation.events';
import { parseActions } from './actions/parse-actions';
import { runActionsAsync, type ActionInput, type ActionOutcome } from './actions/run-actions';
import { renderValue } from './actions/templating';
import type { LlmClient } from './llm/llm-client';
import { ACTION_TOOLS, buildMessages } from './llm/prompt';
import { OUT_OF_DOMAIN_CONFIDENCE } from './retrieval/topic-index';
import { TopicIndexes } from './topic-indexes';
import type { ToolCaller } from './tools/tool-caller';
import { joinOutcomes, modelToolSpecs, splitToolCalls, toolResultMessages } from './tools/model-tools';

/** Topics this sure or better go to the model as context. */
const CONTEXT_CONFIDENCE = 0.2;

export const FALLBACK_RESPONSE = "I'm sorry, I can't help with that. Could you rephrase your question?";
export const SILENCE_RESPONSE = "Sorry, I didn't catch that. Could you say it again?";

export interface TurnInput {
  text: string;
  state: Readonly<Record<string, unknown>>;
  asrLangCode: string;
  ttsLangCode: string;
  metadata: Record<string, unknown>;
  /** ISO time the input was received, from the platform clock */
  receivedAt: string;
  newId: () => string;
}

export interface TurnResult {
  turn: Omit<TurnData, 'turnIndex'>;
  effects: TurnEffects;
  /** state after this turn's changes */
  state: Record<string, unknown>;
}

const seconds = (ms: number) => Math.round(ms * 1000) / 1e6;

/**
 * What answers in every channel. Retrieves the deployment's active topics for the input (BM25
 * over names, example queries and content, built once per deployment: topic-indexes.ts) and cites the best one above
 * the out-of-domain threshold. Embedded (no model): answers with the cited topic's content. With
 * an LLM: the model answers from `behavior` and the retrieved topics and may call the actions as
 * tools; a failed or slow model call falls back to the embedded answer and counts as an API error.
 * The cited topic's actions run either way. Stages are timed with the monotonic clock. The caller
 * appends the result.
 */
export class AgentRuntime {
  constructor(
    private readonly llm: LlmClient | null = null,
    private readonly indexes: TopicIndexes = new TopicIndexes(),
    private readonly tools: ToolCaller | null = null,
  ) {}

  /** The greeting also starts building the deployment's retrieval index, for the turns to come. */
  greet(content: ServedContent, input: Omit<TurnInput, 'text' | 'metadata'>): TurnResult {
    this.indexes.warm(content);
    const turn: Omit<TurnData, 'turnIndex'> = {
      ...this.emptyTurn(input.receivedAt, input.asrLangCode, input.ttsLangCode),
      agentResponse: content.greeting,
      currentNode: 'greeting',
      nodeTrace: ['start', 'greeting'],
      latency: { total_s: 0, stages: { retrieval: 0, generation: 0, actions: 0 } },
    };
    return { turn, effects: noEffects(), state: { ...input.state } };
  }

  async respond(content: ServedContent, input: TurnInput): Promise<TurnResult> {
    const t0 = performance.now();
    const text = input.text.trim();
    const { index, topics } = await this.indexes.of(content);
    const hits = text ? index.search(text, 5) : [];
    const t1 = performance.now();

    const best = hits[0];
    const cited = best && best.confidence >= OUT_OF_DOMAIN_CONFIDENCE ? topics.get(best.topicId) : undefined;
    const silence = text.length === 0;
    let agentResponse = silence ? SILENCE_RESPONSE : cited ? cited.content : FALLBACK_RESPONSE;
    const llmRequests: TurnData['llmRequests'] = [];
    let toolCalls: ActionInput[] = [];
    // agent tools (contract §20): the deployment's, callable by call_function and by the model
    const functions = this.tools?.functionsFor(content);
    let modelCalls: ActionOutcome | null = null;
    if (this.llm && !silence) {
      const context = hits
        .filter((h) => h.confidence >= CONTEXT_CONFIDENCE)
        .slice(0, 3)
        .map((h) => topics.get(h.topicId)!);
      const messages = buildMessages(content.behavior, context, text);
      const completion = await this.llm.complete(messages, [...ACTION_TOOLS, ...modelToolSpecs(content.tools)]);
      if ('error' in completion) llmRequests.push(completion.error);
      else {
        llmRequests.push(completion.request);
        if (completion.text) agentResponse = completion.text;
        const split = splitToolCalls(completion.toolCalls, content.tools);
        toolCalls = split.actions;
        if (split.toolActions.length > 0) {
          // one round trip: the tools' answers go back to the model, which answers from them
          modelCalls = await runActionsAsync(split.toolActions, {
            state: { ...input.state },
            newId: input.newId,
            functions,
          });
          const followUp = await this.llm.complete(
            [...messages, ...toolResultMessages(completion, split.toolCallIds, modelCalls)],
            [],
          );
          if ('error' in followUp) llmRequests.push(followUp.error);
          else {
            llmRequests.push(followUp.request);
            if (followUp.text) agentResponse = followUp.text;
          }
        }
      }
    }
    const t2 = performance.now();

    const parsed = cited?.actions ? parseActions(cited.actions) : null;
    const actions = [...(parsed?.actions ?? []), ...toolCalls];
    const ran = actions.length
      ? await runActionsAsync(actions, {
          state: modelCalls ? modelCalls.state : { ...input.state },
          newId: input.newId,
          functions,
        })
      : null;
    const outcome = joinOutcomes(modelCalls, ran);
    // a failed call_function with a `fallback` answers with it; otherwise `$state.…` in the topic's text reads the state after the actions
    if (outcome?.fallback !== undefined) agentResponse = outcome.fallback;
    else if (cited && agentResponse === cited.content && agentResponse.includes('$state.'))
      agentResponse = renderValue(agentResponse, outcome?.state ?? input.state);
    // A line that does not parse is a function error of this turn, like an unknown action.
    const invalid = (parsed?.errors ?? []).map((e) => ({
      name: 'invalid_action',
      args: { line: String(e.line) },
      status: 'error' as const,
      error: e.message,
    }));
    const t3 = performance.now();

    const nodeTrace = [
      'start',
      'retrieval',
      cited ? `topic:${cited.name}` : silence ? 'silence' : 'fallback',
      ...(llmRequests.length ? ['llm'] : []),
      ...(outcome ? ['actions'] : []),
    ];
    const turn: Omit<TurnData, 'turnIndex'> = {
      ...this.emptyTurn(input.receivedAt, input.asrLangCode, input.ttsLangCode),
      userInput: input.text,
      agentResponse,
      isSilence: silence,
      isOod: !silence && !cited,
      retrievedTopics: hits.map((h) => h.name),
      retrievedSources: hits.map((h) => h.topicId),
      citedTopic: cited?.name ?? '',
      currentNode: nodeTrace[2],
      nodeTrace,
      functionEvents: [...invalid, ...(outcome?.functionEvents ?? [])],
      functionErrors: invalid.length + (outcome?.functionErrors ?? 0),
      llmRequests,
      apiErrors: llmRequests.filter((r) => r.status !== 'ok').length,
      inputMetadata: input.metadata,
      latency: {
        total_s: seconds(t3 - t0),
        stages: { retrieval: seconds(t1 - t0), generation: seconds(t2 - t1), actions: seconds(t3 - t2) },
      },
    };
    const effects: TurnEffects = outcome
      ? {
          stateChanges: outcome.stateChanges,
          metrics: outcome.metrics,
          awaited: outcome.awaitedEvents,
          handoff: outcome.handoff ? { ...outcome.handoff, sharedId: outcome.handoff.sharedId ?? '' } : null,
          ended: outcome.ended,
          ...(functions?.calls.length ? { toolCalls: functions.calls } : {}),
        }
      : noEffects();
    return { turn, effects, state: outcome ? outcome.state : { ...input.state } };
  }

  private emptyTurn(at: string, asrLangCode: string, ttsLangCode: string): Omit<TurnData, 'turnIndex'> {
    return {
      userInput: '',
      userInputAt: at,
      agentResponse: '',
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
      apiErrors: 0,
      latency: { total_s: 0, stages: {} },
      asrLangCode,
      ttsLangCode,
      inputMetadata: {},
      delayedResponse: false,
    };
  }
}

function noEffects(): TurnEffects {
  return { stateChanges: {}, metrics: [], awaited: [], handoff: null, ended: false };
}
