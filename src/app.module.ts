import { DynamicModule, Module, type Type } from '@nestjs/common';
import type { Logger } from 'pino';
import { CONTEXT_TABLES } from './app.database';
import { RegisterUpcasters } from './app.upcasters';
import { AccountsModule } from './accounts/accounts.module';
import { AgentsModule } from './agents/agents.module';
import { LearningModule } from './learning/learning.module';
import { AgentTestsModule } from './agent-tests/agent-tests.module';
import { TestRunsModule } from './agent-tests/test-runs.module';
import { AgentToolsModule } from './agents/tools/agent-tools.module';
import { AuditExportModule } from './audit-export/audit-export.module';
import { AlertsModule } from './alerts/alerts.module';
import { AnalysisModule } from './analysis/analysis.module';
import { ConversationsModule } from './conversations/conversations.module';
import { ConversationsApiModule } from './conversations-api/conversations-api.module';
import { AnalyticsModule } from './analytics/analytics.module';
import { ErasureModule } from './erasure/erasure.module';
import { DebugChatModule } from './debug-chat/debug-chat.module';
import { MessagingModule } from './messaging/messaging.module';
import { EventStoreModule } from './event-store/event-store.module';
import { ExternalEventsModule } from './external-events/external-events.module';
import { ChatApiModule } from './chat-api/chat-api.module';
import { KeyAuthModule } from './accounts/key-auth.module';
import type { Clock } from './platform/clock/clock';
import type { Config } from './platform/config/config';
import { OperationsModule } from './operations/operations.module';
import { PlatformModule } from './platform/platform.module';
import { ReadModelsModule } from './read-models/read-models.module';
import { ProcessManagersModule } from './process-managers/process-managers.module';
import { WebhooksModule } from './webhooks/webhooks.module';
import { OutboundCallsModule } from './outbound-calls/outbound-calls.module';
import { SmsModule } from './sms/sms.module';
import { RuntimeModule } from './runtime/runtime.module';
import { CallLimitsModule } from './call-limits/call-limits.module';
import { ConcurrencyModule } from './concurrency/concurrency.module';
import { DniModule } from './dni/dni.module';
import { InboundCallsModule } from './inbound-calls/inbound-calls.module';
import { SipServerModule } from './sip/sip-server.module';
import { VoiceSeamModule, type VoiceSeam } from './sip/voice-seam.module';
import { RecordingsModule } from './voice/recording/recordings.module';
import { OpenApiModule } from './openapi/openapi.module';
import { ROUTE_DOCS } from './app.route-docs';
import { StudioModule } from './studio/studio.module';

@Module({})
export class AppModule {
  /** `extraControllers`: mounted beside the app's own (benchmarks mount A/B probe routes). */
  static forRoot(
    config: Config,
    logger: Logger,
    clock?: Clock,
    extraControllers: Type[] = [],
    voice: VoiceSeam = {},
  ): DynamicModule {
    // one instance for both SIP modules (outbound carrier, inbound server)
    const voiceSeam = VoiceSeamModule.forRoot(voice);
    return {
      module: AppModule,
      imports: [
        PlatformModule.forRoot(config, logger, clock, CONTEXT_TABLES),
        EventStoreModule,
        ReadModelsModule,
        ProcessManagersModule,
        ConversationsModule,
        KeyAuthModule,
        AccountsModule,
        AgentsModule,
        RuntimeModule,
        // the learning loop: conversations' words become example queries of topics on branches
        LearningModule,
        DebugChatModule,
        ConversationsApiModule,
        AnalyticsModule,
        ErasureModule,
        AlertsModule,
        WebhooksModule,
        AnalysisModule,
        OutboundCallsModule.forRoot(voiceSeam),
        ExternalEventsModule,
        MessagingModule,
        SmsModule,
        ChatApiModule,
        OperationsModule.forRoot({ testClock: config.testClock }),
        CallLimitsModule,
        ConcurrencyModule,
        DniModule,
        InboundCallsModule,
        SipServerModule.forRoot(voiceSeam),
        RecordingsModule,
        AgentTestsModule,
        // global: binds agents' TEST_GATE port (agents never import agent tests)
        TestRunsModule,
        AgentToolsModule,
        AuditExportModule,
        OpenApiModule.forRoot(ROUTE_DOCS),
        StudioModule,
      ],
      providers: [RegisterUpcasters],
      controllers: extraControllers,
    };
  }
}
