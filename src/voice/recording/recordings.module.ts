import { Injectable, Module } from '@nestjs/common';
import { AccountsModule } from '../../accounts/accounts.module';
import { EventStoreModule } from '../../event-store/event-store.module';
import { ProcessManagersModule } from '../../process-managers/process-managers.module';
import { RunsBehindTheLog, type BehindTheLogWork } from '../../process-managers/behind-the-log';
import type { DueTimer, TimerHandler } from '../../process-managers/timers';
import { VoiceModule } from '../voice.module';
import { CallRecordings, RECORDING_RETENTION } from './call-recordings';
import { RecordingController } from './recording.controller';

/** The retention timer's handler: deleting is idempotent, so a timer fired twice is harmless. */
@Injectable()
@RunsBehindTheLog()
class RecordingRetention implements BehindTheLogWork {
  readonly timerHandlers: Record<string, TimerHandler>;

  constructor(recordings: CallRecordings) {
    this.timerHandlers = {
      [RECORDING_RETENTION]: (timer: DueTimer<{ conversationId: string }>) =>
        recordings.delete(timer.payload.conversationId),
    };
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
