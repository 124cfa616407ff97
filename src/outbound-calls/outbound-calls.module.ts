import { BeforeApplicationShutdown, DynamicModule, Inject, Injectable, Module, OnModuleInit } from '@nestjs/common';
import type { Logger } from 'pino';
import { CallLimitsModule } from '../call-limits/call-limits.module';
import { ConversationsModule } from '../conversations/conversations.module';
import { CommandsModule } from '../commands/commands.module';
import { CONFIG, type Config } from '../platform/config/config';
import { LOGGER } from '../platform/logging/logger';
import { ProcessManagers } from '../process-managers/process-managers';
import { Timers } from '../process-managers/timers';
import { CallConversations } from './call-conversation';
import { CallProgressRecorder } from './call-progress';
import { CALL_PROGRESS, CARRIER, type Carrier } from './carrier.port';
import { OUTBOUND_CALL_COMMANDS, outboundCallCommands, type OutboundCallCommands } from './outbound-call-commands';
import { OutboundCallsController } from './outbound-calls.controller';
import { outboundCallsProcessManager, watchdogHandler } from './outbound-calls.process-manager';
import { OutboundCallsService } from './outbound-calls.service';
import { SimulatedCarrier } from './simulated-carrier';
import { SipCarrier } from './sip/sip-carrier';
import { WATCHDOG_OWNER } from './watchdog';
import { EventStoreModule } from '../event-store/event-store.module';
import { ReadModelsModule } from '../read-models/read-models.module';
import { ProcessManagersModule } from '../process-managers/process-managers.module';
import { AgentDirectoryModule } from '../accounts/agent-directory.module';
import { AgentsModule } from '../agents/agents.module';
import { CALL_AUDIO_FACTORY, type CallAudioFactory } from '../voice/call-media.port';
import { VOICE_CALLS, type VoiceCalls } from '../voice/voice-calls.port';

const system = (cause: string) => ({
  actor: 'system:outbound-calls',
  correlationId: cause,
  idempotencyKey: `outbound-calls:release:${cause}`,
});

/** Registers the process manager and the watchdog, and hangs up the carrier on shutdown. */
@Injectable()
class OutboundCallsLifecycle implements OnModuleInit, BeforeApplicationShutdown {
  constructor(
    private readonly processManagers: ProcessManagers,
    private readonly timers: Timers,
    private readonly calls: OutboundCallsService,
    private readonly conversations: CallConversations,
    @Inject(CARRIER) private readonly carrier: Carrier,
    @Inject(CALL_PROGRESS) private readonly progress: CallProgressRecorder,
    @Inject(OUTBOUND_CALL_COMMANDS) private readonly callStreams: OutboundCallCommands,
  ) {}

  onModuleInit() {
    this.processManagers.register(
      outboundCallsProcessManager({
        calls: this.callStreams,
        carrier: this.carrier,
        conversations: this.conversations,
        releaseLine: (accountId, callSid, cause) => this.calls.releaseLine(accountId, callSid, system(cause.id)),
      }),
    );
    this.timers.handle(
      WATCHDOG_OWNER,
      watchdogHandler({
        calls: this.callStreams,
        ended: (callSid, key) =>
          this.progress.ended(callSid, { reason: 'error', hungUpBy: null, sipStatus: null }, { key }),
        releaseLine: (accountId, callSid) => this.calls.releaseLine(accountId, callSid, system(`watchdog:${callSid}`)),
      }),
    );
  }

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
        OutboundCallsLifecycle,
      ],
    };
  }
}
