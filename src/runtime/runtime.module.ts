import { Inject, Module, type OnModuleDestroy } from '@nestjs/common';
import { CONFIG, type Config } from '../platform/config/config';
import { AgentRuntime } from './agent-runtime';
import { LlmClient } from './llm/llm-client';
import { TopicIndexBuilder } from './retrieval/topic-index-builder';
import { TopicIndexes } from './topic-indexes';
import { ReadModelsModule } from '../read-models/read-models.module';
import { ToolCaller } from './tools/tool-caller';

/**
 * The agent runtime every channel answers with (debug chat, web chat, SMS, calls): one per
 * process, so a deployment's retrieval index is built once whichever channel asks first.
 */
@Module({
  // the read models: ToolCaller reads the agent's tool secret
  imports: [ReadModelsModule],
  providers: [
    TopicIndexBuilder,
    ToolCaller,
    // the LLM client exists only when the configuration names one
    {
      provide: AgentRuntime,
      inject: [CONFIG, TopicIndexBuilder, ToolCaller],
      useFactory: (config: Config, builder: TopicIndexBuilder, tools: ToolCaller) =>
        new AgentRuntime(config.llm ? new LlmClient(config.llm) : null, new TopicIndexes(builder.build), tools),
    },
  ],
  exports: [AgentRuntime],
})
export class RuntimeModule implements OnModuleDestroy {
  constructor(@Inject(TopicIndexBuilder) private readonly builder: TopicIndexBuilder) {}

  /** The index thread closes with the app (an idle one never kept the process alive anyway). */
  async onModuleDestroy(): Promise<void> {
    await this.builder.close();
  }
}
