import { DynamicModule, Module, type Type } from '@nestjs/common';
import type { Logger } from 'pino';
import { AccountsModule } from './accounts/accounts.module';
import { AgentsModule } from './agents/agents.module';
import { AlertsModule } from './alerts/alerts.module';
import { ConversationsModule } from './conversations/conversations.module';
import { ConversationsApiModule } from './conversations-api/conversations-api.module';
import { DebugChatModule } from './debug-chat/debug-chat.module';
import { MessagingModule } from './messaging/messaging.module';
import { EventStoreModule } from './event-store/event-store.module';
import { ExternalEventsModule } from './external-events/external-events.module';
import { ChatApiModule } from './chat-api/chat-api.module';
import { AuthModule } from './platform/auth/auth.module';
import { ClockController } from './platform/clock/clock.controller';
import type { Clock } from './platform/clock/clock';
import type { Config } from './platform/config/config';
import { HealthController } from './platform/health/health.controller';
import { MetricsController } from './platform/metrics/metrics.controller';
import { PlatformModule } from './platform/platform.module';
import { ReadModelsModule } from './read-models/read-models.module';
import { WebhooksModule } from './webhooks/webhooks.module';
import { OutboundCallsModule } from './outbound-calls/outbound-calls.module';
import { SmsModule } from './sms/sms.module';
import { RuntimeModule } from './runtime/runtime.module';
import { StudioModule } from './studio/studio.module';

@Module({})
export class AppModule {
  /** `extraControllers`: mounted beside the app's own (benchmarks mount A/B probe routes). */
  static forRoot(config: Config, logger: Logger, clock?: Clock, extraControllers: Type[] = []): DynamicModule {
    return {
      module: AppModule,
      imports: [
        PlatformModule.forRoot(config, logger, clock),
        EventStoreModule,
        ReadModelsModule,
        ConversationsModule,
        AuthModule,
        AccountsModule,
        AgentsModule,
        RuntimeModule,
        DebugChatModule,
        ConversationsApiModule,
        AlertsModule,
        WebhooksModule,
        OutboundCallsModule,
        ExternalEventsModule,
        MessagingModule,
        SmsModule,
        ChatApiModule,
        StudioModule,
      ],
      // The clock route exists only under the test clock (contract §1).
      controllers: [
        HealthController,
        MetricsController,
        ...(config.testClock ? [ClockController] : []),
        ...extraControllers,
      ],
    };
  }
}
