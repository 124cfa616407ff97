import { DynamicModule, Module } from '@nestjs/common';
import { CALL_AUDIO_FACTORY, type CallAudioFactory } from '../voice/call-media.port';
import { VOICE_CALLS, type VoiceCalls } from '../voice/voice-calls.port';
import { SilentVoiceCalls } from './silent-voice-calls';

/** What SIP signalling hands calls to: the call audio factory and the voice side. */
export interface VoiceSeam {
  /** null or absent: no media side, so SIP offers and answers an inactive stream (signalling only) */
  audio?: CallAudioFactory | null;
  /** absent: SilentVoiceCalls */
  calls?: VoiceCalls;
}

/**
 * Provides CALL_AUDIO_FACTORY and VOICE_CALLS to the SIP modules (outbound carrier, inbound
 * server). AppModule builds it once from what it is given, so both SIP modules share one instance;
 * the media side, once merged, passes its implementations here.
 */
@Module({})
export class VoiceSeamModule {
  static forRoot(seam: VoiceSeam = {}): DynamicModule {
    return {
      module: VoiceSeamModule,
      providers: [
        { provide: CALL_AUDIO_FACTORY, useValue: seam.audio ?? null },
        { provide: VOICE_CALLS, useValue: seam.calls ?? new SilentVoiceCalls() },
      ],
      exports: [CALL_AUDIO_FACTORY, VOICE_CALLS],
    };
  }
}
