import { BeforeApplicationShutdown, DynamicModule, Inject, Injectable, Module } from '@nestjs/common';
import type { Logger } from 'pino';
import { CallLimitsModule } from '../call-limits/call-limits.module';
import { ConversationsModule } from '../conversations/conversations.module';
import { CommandsModule } from '../commands/commands.module';
import { CONFIG, type Config } from '../platform/config/config';
import { LOGGER } from '../platform/logging/logger';
import { Timers } from '../process-managers/timers';
import { CallConversations } from './call-conversation';
import { CallProgressRecorder } from './call-progress';
import { CALL_PROGRESS, CARRIER, type Carrier } from './carrier.port';
import { outboundCallCommands } from './outbound-call-commands';
import { OutboundCallsBehindTheLog } from './outbound-calls-behind-the-log';
import { OutboundCallsController } from './outbound-calls.controller';
import { OutboundCallsService } from './outbound-calls.service';
import { SimulatedCarrier } from './simulated-carrier';
import { SipCarrier } from './sip/sip-carrier';
import { EventStoreModule } from '../event-store/event-store.module';
import { ReadModelsModule } from '../read-models/read-models.module';
import { ProcessManagersModule } from '../process-managers/process-managers.module';
import { AgentDirectoryModule } from '../accounts/agent-directory.module';
import { AgentsModule } from '../agents/agents.module';
import { CALL_AUDIO_FACTORY, type CallAudioFactory } from '../voice/call-media.port';
import { VOICE_CALLS, type VoiceCalls } from '../voice/voice-calls.port';

/** Hangs up the carrier's calls on shutdown. */
@Injectable()
class CarrierShutdown implements BeforeApplicationShutdown {
  constructor(@Inject(CARRIER) private readonly carrier: Carrier) {}

  async beforeApplicationShutdown() {
    await this.carrier.stop();
  }
}

@Module({})
export class OutboundCallsModule {
  /** `voice`: AppModule's VoiceSeamModule (the SIP carrier's call audio and voice side). */
  static forRoot(voice: DynamicModule): DynamicModule {
    return {
      module: OutboundCallsModule,
      imports: [
        voice,
        EventStoreModule,
        CommandsModule,
        ReadModelsModule,
        ProcessManagersModule,
        AgentDirectoryModule,
        AgentsModule,
        ConversationsModule,
        CallLimitsModule,
      ],
      controllers: [OutboundCallsController],
      providers: [
        outboundCallCommands,
        { provide: CALL_PROGRESS, useClass: CallProgressRecorder },
        // the carrier the configuration names: SIP, or the simulator
        {
          provide: CARRIER,
          inject: [CONFIG, Timers, CALL_PROGRESS, LOGGER, CALL_AUDIO_FACTORY, VOICE_CALLS],
          useFactory: (
            config: Config,
            timers: Timers,
            progress: CallProgressRecorder,
            logger: Logger,
            audio: CallAudioFactory | null,
            voice: VoiceCalls,
          ): Carrier => {
            const { sip, ringTimeoutS } = config.outboundCalls;
            return sip
              ? new SipCarrier({ ...sip, ringTimeoutS }, progress, logger, { audio, voice })
              : new SimulatedCarrier(timers, progress, ringTimeoutS);
          },
        },
        CallConversations,
        OutboundCallsService,
        OutboundCallsBehindTheLog,
        CarrierShutdown,
      ],
    };
  }
}
