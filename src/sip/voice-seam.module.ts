import { DynamicModule, Module } from '@nestjs/common';
import { AgentsModule } from '../agents/agents.module';
import { ConversationsModule } from '../conversations/conversations.module';
import { EventStoreModule } from '../event-store/event-store.module';
import { CONFIG, type Config } from '../platform/config/config';
import { CALL_AUDIO_FACTORY, type CallAudioFactory } from '../voice/call-media.port';
import { EngineVoiceCalls } from '../voice/engine-voice-calls';
import { RtpCallAudioFactory } from '../voice/media/rtp-call-audio-factory';
import {
  SPEECH_RECOGNIZER,
  SPEECH_SYNTHESIZER,
  type SpeechRecognizer,
  type SpeechSynthesizer,
} from '../voice/speech/speech.port';
import { RecordingsModule } from '../voice/recording/recordings.module';
import { VoiceModule } from '../voice/voice.module';
import { VOICE_CALLS, type VoiceCalls } from '../voice/voice-calls.port';
import { VOICE_CONFIG, type VoiceConfig } from '../voice/voice-config';
import { SilentVoiceCalls } from './silent-voice-calls';

/** What SIP signalling hands calls to: the call audio factory and the voice side. */
export interface VoiceSeam {
  /**
   * absent: RTP (the media side's RtpCallAudioFactory) whenever SIP is configured (the inbound
   * server or the outbound SIP carrier); null: no media side, so SIP offers and answers an
   * inactive stream (signalling only); a factory: that one (tests)
   */
  audio?: CallAudioFactory | null;
  /** absent: EngineVoiceCalls (speech over the conversation engine) when there is call audio, else SilentVoiceCalls */
  calls?: VoiceCalls;
  /**
   * absent: the engines the configuration names (VoiceModule); given: these instead, for the calls
   * EngineVoiceCalls answers (the bench's stubs, which measure the platform without speech engines)
   */
  speech?: { recognizer: SpeechRecognizer; synthesizer: SpeechSynthesizer };
}

const sipConfigured = (config: Config) => config.sipServer !== null || config.outboundCalls.sip !== null;

/**
 * Provides CALL_AUDIO_FACTORY and VOICE_CALLS to the SIP modules (outbound carrier, inbound
 * server). AppModule builds it once, so both SIP modules share one instance. In production nothing
 * is passed: SIP calls carry RTP and speech (docs/voice.md); tests may inject their own parts.
 */
@Module({})
export class VoiceSeamModule {
  static forRoot(seam: VoiceSeam = {}): DynamicModule {
    return {
      module: VoiceSeamModule,
      imports: [VoiceModule, EventStoreModule, AgentsModule, ConversationsModule, RecordingsModule],
      providers: [
        EngineVoiceCalls,
        // provided here, they win over VoiceModule's for EngineVoiceCalls (a module's own providers first)
        ...(seam.speech
          ? [
              { provide: SPEECH_RECOGNIZER, useValue: seam.speech.recognizer },
              { provide: SPEECH_SYNTHESIZER, useValue: seam.speech.synthesizer },
            ]
          : []),
        {
          provide: CALL_AUDIO_FACTORY,
          inject: [CONFIG, VOICE_CONFIG],
          useFactory: (config: Config, voice: VoiceConfig): CallAudioFactory | null =>
            seam.audio !== undefined ? seam.audio : sipConfigured(config) ? new RtpCallAudioFactory(voice) : null,
        },
        {
          provide: VOICE_CALLS,
          inject: [CALL_AUDIO_FACTORY, EngineVoiceCalls],
          useFactory: (audio: CallAudioFactory | null, engine: EngineVoiceCalls): VoiceCalls =>
            seam.calls ?? (audio ? engine : new SilentVoiceCalls()),
        },
      ],
      exports: [CALL_AUDIO_FACTORY, VOICE_CALLS],
    };
  }
}
