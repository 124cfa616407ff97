import type { Logger } from 'pino';
import type { AnalysisField } from '../agents/analysis-settings';
import type { ServedContent } from '../agents/deployment-content';
import type { ConversationAnalysedData, ConversationEvent, EndReason } from '../conversations/conversation.events';
import { isTestConversationStream } from '../conversations/conversation.events';
import type { ConversationEngine } from '../conversations/engine/conversation-engine';
import type { EventStore, RecordedEvent } from '../event-store/event-store.port';
import { DomainError } from '../platform/errors/domain-error';
import type { ProcessManager } from '../process-managers/process-manager';
import type { ModelSource } from '../runtime/llm/model-router';
import { foldFacts, type ConversationFacts } from './conversation-facts';
import { embeddedAnalysis } from './embedded-analyser';
import { modelAnalysis } from './model-analyser';

const ANALYSIS_PROCESS = 'conversation-analysis';
const STREAM_PREFIX = 'conversation-';

interface AnalysisDeps {
  store: Pick<EventStore, 'readStream'>;
  /** the one writer of conversation streams: records the analysis once (the decider refuses a second) */
  engine: Pick<ConversationEngine, 'recordAnalysis'>;
  /** what the conversation's deployment serves: the `analysis` setting and the model settings */
  deployments: { ofDeployment(agentId: string, deploymentId: string): Promise<ServedContent> };
  /** the model a turn of that deployment would answer with (runtime/llm/model-router.ts) */
  models: ModelSource;
  logger: Logger;
}

/**
 * Appends ConversationAnalysed to every conversation that ends (contract §24), test runs' aside.
 * It folds the stream up to the end, takes the `analysis` setting of the deployment the
 * conversation ran on, and asks the model that deployment's turns use; without one, or when it
 * fails or times out (the model client's bound), the embedded analyser answers. The command's
 * idempotency key is the ConversationEnded event's id and the decider records one analysis per
 * conversation, so the events a crash makes it see again append nothing twice, and a stream
 * analysed already is passed over without asking any model.
 */
export function analysisProcessManager({ store, engine, deployments, models, logger }: AnalysisDeps): ProcessManager {
  const contentOf = async (facts: ConversationFacts): Promise<ServedContent | null> => {
    try {
      return await deployments.ofDeployment(facts.agentId, facts.deploymentId);
    } catch (error) {
      // the agent or its deployment is gone: the conversation is still analysed, without its fields
      if (error instanceof DomainError) return null;
      throw error;
    }
  };

  const analyse = async (facts: ConversationFacts, conversationId: string): Promise<ConversationAnalysedData> => {
    const content = await contentOf(facts);
    const fields: AnalysisField[] = content?.settings?.analysis?.fields ?? [];
    const embedded = embeddedAnalysis(facts, fields);
    // a conversation without a user turn gives a model nothing to read
    if (content === null || facts.userTurns === 0) return embedded;
    const model = await models.clientFor(content);
    if (model === null || 'unavailable' in model) return embedded;
    try {
      return await modelAnalysis(model, facts, fields);
    } catch (error) {
      logger.warn(
        { err: error, conversationId, processManager: ANALYSIS_PROCESS },
        'the model did not analyse the conversation; the embedded analyser did',
      );
      return embedded;
    }
  };

  const onEnded = async (event: RecordedEvent<{ reason: EndReason }>): Promise<void> => {
    const events = await store.readStream(event.streamId);
    // what the conversation was when it ended: a later event (an external event bound after the end) changes no analysis
    const facts = foldFacts(
      events.filter(
        (e) => e.revision <= event.revision || e.type === 'ConversationAnalysed',
      ) as unknown as Iterable<ConversationEvent>,
    );
    if (!facts.started || facts.analysed) return;
    const conversationId = event.streamId.slice(STREAM_PREFIX.length);
    const analysis = await analyse(facts, conversationId);
    await engine.recordAnalysis(conversationId, analysis, {
      actor: `system:${ANALYSIS_PROCESS}`,
      correlationId: event.metadata.correlationId,
      causationId: event.id,
      idempotencyKey: event.id,
    });
  };

  // Conversations are analysed concurrently (a model call each, bounded by its client's timeout),
  // four starting per turn of the event loop (process-manager.ts); 16 a batch bounds those in flight.
  return {
    name: ANALYSIS_PROCESS,
    wants: (event: RecordedEvent) =>
      event.streamId.startsWith(STREAM_PREFIX) && !isTestConversationStream(event.streamId),
    partitionBy: (event: RecordedEvent) => event.streamId,
    maxBatchSize: 16,
    handles: { ConversationEnded: onEnded },
    // conversations that ended before analysis was installed are not analysed: on a large log
    // with a model that would be a model call for each, all at once
    startsAtHead: true,
    // no read waits for an analysis: a conversation reads ended at once, its analysis when it comes
    awaitedByReads: false,
  };
}
