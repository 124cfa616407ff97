import { Injectable, Module, type OnModuleInit } from '@nestjs/common';
import { AccountsModule } from '../../accounts/accounts.module';
import { EventStoreModule } from '../../event-store/event-store.module';
import { ProcessManagersModule } from '../../process-managers/process-managers.module';
import { Timers, type DueTimer } from '../../process-managers/timers';
import { VoiceModule } from '../voice.module';
import { CallRecordings, RECORDING_RETENTION } from './call-recordings';
import { RecordingController } from './recording.controller';

/** Registers the retention timer's handler: deleting is idempotent, so a timer fired twice is harmless. */
@Injectable()
class RecordingRetention implements OnModuleInit {
  constructor(
    private readonly timers: Timers,
    private readonly recordings: CallRecordings,
  ) {}

  onModuleInit() {
    this.timers.handle(RECORDING_RETENTION, (timer) =>
      this.recordings.delete((timer as DueTimer<{ conversationId: string }>).payload.conversationId),
    );
  }
}

/** Call recordings: written by the voice side (EngineVoiceCalls), served with the conversation, deleted after retention. */
@Module({
  imports: [VoiceModule, EventStoreModule, ProcessManagersModule, AccountsModule],
  controllers: [RecordingController],
  providers: [CallRecordings, RecordingRetention],
  exports: [CallRecordings],
})
export class RecordingsModule {}
