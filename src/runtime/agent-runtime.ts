import type { ServedContent } from '../agents/deployment-content';
import type { TurnEffects } from '../conversations/conversation.decider';
import type { TurnData, TurnRetrieval } from '../conversations/conversation.events';
import { retrievalFor } from '../agents/runtime-settings';
import type { Answers, OnChunk, TurnInput, TurnResult } from '../conversations/engine/answers';
import { parseActions } from './actions/parse-actions';
import { runActionsAsync, type ActionInput, type ActionOutcome } from './actions/run-actions';
import { renderValue } from './actions/templating';
import { ChunkStream } from './chunk-stream';
import { LlmClient } from './llm/llm-client';
import type { ModelSource } from './llm/model-router';
import { ACTION_TOOLS, buildMessages } from './llm/prompt';
import { RUNTIME_DEFAULTS } from '../agents/runtime-defaults';
import { detectSmallTalk, SMALL_TALK_REPLIES } from './small-talk';
import { TopicIndexes, type IndexedContent } from './topic-indexes';
import type { SearchHit } from './retrieval/topic-index';
import type { HybridRetrieval } from './vectors/hybrid-retrieval';
import type { ToolCaller } from './tools/tool-caller';
import { FollowUpAnswer } from './tools/follow-up-answer';
import { joinOutcomes, modelToolSpecs, splitToolCalls, toolResultMessages } from './tools/model-tools';

/** Topics this sure or better go to the model as context. */
const CONTEXT_CONFIDENCE = 0.2;

export { FALLBACK_RESPONSE } from '../agents/runtime-defaults';
export type { OnChunk, TurnInput, TurnResult } from '../conversations/engine/answers';
export const SILENCE_RESPONSE = "Sorry, I didn't catch that. Could you say it again?";

const seconds = (ms: number) => Math.round(ms * 1000) / 1e6;

/** Topics a turn retrieves (the model's context, `retrievedTopics`). */
const RETRIEVED = 5;

/**
 * What answers in every channel, with the runtime settings the deployment carries (threshold,
 * fallback text, small talk, model; absent ones at their defaults). Small talk (a greeting, thanks,
 * a goodbye: small-talk.ts) that no topic answers gets a polite reply, with no model call; a goodbye
 * ends the conversation. Otherwise it retrieves the deployment's active topics for the input (BM25 over names, example queries and
 * content, built once per deployment: topic-indexes.ts) and cites the best one at or above the
 * agent's threshold. Embedded (no model): answers with the cited topic's content. With a model
 * (llm/model-router.ts): the model answers from `behavior` and the retrieved topics, streaming its
 * text to `onChunk`, and may call the actions as tools; a failed or slow model call falls back to
 * the embedded answer and counts as an API error. The cited topic's actions run either way.
 * A tool round trip's final answer streams as well. Stages are timed with the monotonic clock
 * (`first_token`: when the first text of the recorded answer came, the final answer's after a tool call).
 * The caller appends the result.
 */
export class AgentRuntime implements Answers {
  private readonly models: ModelSource;

  constructor(
    models: LlmClient | ModelSource | null = null,
    private readonly indexes: TopicIndexes = new TopicIndexes(),
    private readonly tools: ToolCaller | null = null,
    /** hybrid retrieval (vectors/hybrid-retrieval.ts); absent: hybrid agents answer lexically */
    private readonly hybrid: Pick<HybridRetrieval, 'search'> | null = null,
  ) {
    const fixed = models instanceof LlmClient || models === null ? models : undefined;
    this.models = fixed !== undefined ? { clientFor: () => Promise.resolve(fixed) } : (models as ModelSource);
  }

  /**
   * The answer as a stream of text pieces (the model's as it writes; otherwise the whole answer
   * once) and the turn. When the recorded answer goes on from what streamed (a tool round trip whose
   * final answer came whole), the rest follows; one that does not (a model that failed midway) cannot
   * unsay what was streamed, and the turn records the answer given instead.
   */
  stream(content: ServedContent, input: TurnInput): { chunks: AsyncIterable<string>; result: Promise<TurnResult> } {
    const chunks = new ChunkStream();
    let streamed = '';
    const result = this.respond(content, input, (text) => {
      streamed += text;
      chunks.push(text);
    }).then(
      (turn) => {
        const answer = turn.turn.agentResponse;
        if (answer.startsWith(streamed)) chunks.push(answer.slice(streamed.length));
        chunks.end();
        return turn;
      },
      (error: unknown) => {
        chunks.end();
        throw error;
      },
    );
    return { chunks, result };
  }

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

  async respond(content: ServedContent, input: TurnInput, onChunk?: OnChunk): Promise<TurnResult> {
    const t0 = performance.now();
    const text = input.text.trim();
    const settings = content.settings ?? {};
    const threshold = settings.confidence_threshold ?? RUNTIME_DEFAULTS.confidence_threshold;
    const fallback = settings.fallback_text ?? RUNTIME_DEFAULTS.fallback_text;
    const indexed = await this.indexes.of(content);
    const { topics } = indexed;
    const { hits, retrieval } = text ? await this.retrieve(content, indexed, text) : { hits: [], retrieval: undefined };
    const recorded = retrieval ? { retrieval } : {};
    const t1 = performance.now();

    const best = hits[0];
    const cited = best && best.confidence >= threshold ? topics.get(best.topicId) : undefined;
    // An agent's own topic for it (a goodbye that ends with actions) wins; otherwise small talk is
    // answered politely rather than called out of domain. Checked only then: most turns cite a topic.
    const smallTalk =
      !cited && text && (settings.small_talk ?? RUNTIME_DEFAULTS.small_talk) ? detectSmallTalk(text) : null;
    if (smallTalk) {
      const node = `small_talk:${smallTalk}`;
      const turn: Omit<TurnData, 'turnIndex'> = {
        ...this.emptyTurn(input.receivedAt, input.asrLangCode, input.ttsLangCode),
        userInput: input.text,
        agentResponse: SMALL_TALK_REPLIES[smallTalk],
        retrievedTopics: hits.map((h) => h.name),
        retrievedSources: hits.map((h) => h.topicId),
        currentNode: node,
        nodeTrace: ['start', 'retrieval', node],
        inputMetadata: input.metadata,
        ...recorded,
        latency: { total_s: seconds(t1 - t0), stages: { retrieval: seconds(t1 - t0), generation: 0, actions: 0 } },
      };
      return { turn, effects: { ...noEffects(), ended: smallTalk === 'goodbye' }, state: { ...input.state } };
    }
    const silence = text.length === 0;
    let agentResponse = silence ? SILENCE_RESPONSE : cited ? cited.content : fallback;
    const llmRequests: TurnData['llmRequests'] = [];
    let toolCalls: ActionInput[] = [];
    // agent tools (contract §20): the deployment's, callable by call_function and by the model
    const functions = this.tools?.functionsFor(content);
    let modelCalls: ActionOutcome | null = null;
    let firstTokenAt: number | null = null;
    const model = silence ? null : await this.models.clientFor(content);
    if (model && !(model instanceof LlmClient)) llmRequests.push(model.unavailable);
    else if (model) {
      const context = hits
        .filter((h) => h.confidence >= Math.min(CONTEXT_CONFIDENCE, threshold))
        .slice(0, 3)
        .map((h) => topics.get(h.topicId)!);
      const messages = buildMessages(content.behavior, context, text);
      const write = (piece: string) => {
        firstTokenAt ??= performance.now();
        onChunk?.(piece);
      };
      const completion = await model.complete(messages, [...ACTION_TOOLS, ...modelToolSpecs(content.tools)], write);
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
          // The final answer streams too, after whatever the model said before its tool calls
          // (already shown or spoken, so kept): the pieces a channel got are the answer recorded.
          const answer = new FollowUpAnswer(completion.text, write);
          const followUp = await model.complete(
            [...messages, ...toolResultMessages(completion, split.toolCallIds, modelCalls)],
            [],
            (piece) => answer.push(piece),
          );
          if ('error' in followUp) llmRequests.push(followUp.error);
          else {
            llmRequests.push(followUp.request);
            if (followUp.text) agentResponse = answer.text(followUp.text);
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
      ...recorded,
      latency: {
        total_s: seconds(t3 - t0),
        stages: {
          retrieval: seconds(t1 - t0),
          generation: seconds(t2 - t1),
          actions: seconds(t3 - t2),
          ...(firstTokenAt !== null ? { first_token: seconds(firstTokenAt - t0) } : {}),
        },
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

  /**
   * The topics for `text`, best first: lexical, or for an agent set to hybrid retrieval in this
   * environment, fused with the vector ranking (which says how it went: `retrieval`).
   */
  private async retrieve(
    content: ServedContent,
    { index, topics }: IndexedContent,
    text: string,
  ): Promise<{ hits: SearchHit[]; retrieval?: TurnRetrieval }> {
    const settings = retrievalFor(content.settings ?? {}, content.environment);
    if (settings.mode !== 'hybrid') return { hits: index.search(text, RETRIEVED) };
    if (!this.hybrid)
      return {
        hits: index.search(text, RETRIEVED),
        retrieval: { mode: 'lexical', fallback_reason: 'endpoint_missing' },
      };
    return this.hybrid.search(content, settings, index, topics, text, RETRIEVED);
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
