import { Global, Inject, Module, type OnModuleDestroy } from '@nestjs/common';
import { ANSWERS } from '../conversations/engine/answers';
import { AgentRuntime } from './agent-runtime';
import { EndpointsModule } from '../agents/endpoints/endpoints.module';
import { ModelRouter } from './llm/model-router';
import { TopicIndexBuilder } from './retrieval/topic-index-builder';
import { TopicIndexes } from './topic-indexes';
import { ReadModelsModule } from '../read-models/read-models.module';
import { ToolCaller } from './tools/tool-caller';
import { AgentsModule } from '../agents/agents.module';
import { HybridRetrieval } from './vectors/hybrid-retrieval';
import { TopicVectorJobs } from './vectors/topic-vector-jobs';
import { TopicVectorStore } from './vectors/topic-vector-store';
import { TopicVectorsBehindTheLog } from './vectors/topic-vectors-behind-the-log';

/**
 * The agent runtime every channel answers with (debug chat, web chat, SMS, calls): one per
 * process, so a deployment's retrieval index is built once whichever channel asks first. Global:
 * it answers the conversation engine's ANSWERS port, and conversations never import the runtime.
 */
@Global()
@Module({
  // the read models: ToolCaller reads the agent's tool secret; agents: the deployments whose topics are embedded
  imports: [ReadModelsModule, EndpointsModule, AgentsModule],
  providers: [
    TopicIndexBuilder,
    ToolCaller,
    ModelRouter,
    TopicVectorStore,
    TopicVectorJobs,
    HybridRetrieval,
    TopicVectorsBehindTheLog,
    // the runtime is built from the index thread's build function (a value, not a class to inject)
    {
      provide: AgentRuntime,
      inject: [ModelRouter, TopicIndexBuilder, ToolCaller, HybridRetrieval],
      useFactory: (models: ModelRouter, builder: TopicIndexBuilder, tools: ToolCaller, hybrid: HybridRetrieval) =>
        new AgentRuntime(models, new TopicIndexes(builder.build), tools, hybrid),
    },
    { provide: ANSWERS, useExisting: AgentRuntime },
  ],
  // ModelRouter: post-call analysis (src/analysis) asks the same model a conversation's turns did
  exports: [AgentRuntime, ANSWERS, ModelRouter],
})
export class RuntimeModule implements OnModuleDestroy {
  constructor(@Inject(TopicIndexBuilder) private readonly builder: TopicIndexBuilder) {}

  /** The index thread closes with the app (an idle one never kept the process alive anyway). */
  async onModuleDestroy(): Promise<void> {
    await this.builder.close();
  }
}
