import { Module } from '@nestjs/common';
import type { Logger } from 'pino';
import { ComponentStatus } from '../platform/health/component-status';
import { LOGGER } from '../platform/logging/logger';
import { CALL_AUDIO_FACTORY } from './call-media.port';
import { RtpCallAudioFactory } from './media/rtp-call-audio-factory';
import { recognizerFor, synthesizerFor } from './speech/speech-adapters';
import { SPEECH_RECOGNIZER, SPEECH_SYNTHESIZER } from './speech/speech.port';
import { loadVoiceActivity, VOICE_ACTIVITY } from './turn-taking/voice-activity';
import { loadVoiceConfig, VOICE_CONFIG, type VoiceConfig } from './voice-config';

/** a hosted engine that missed its deadline or failed: worth a warning, not an error (the call went on) */
const fallbackNotice = (logger: Logger | null) => (stage: 'asr' | 'tts', primary: string, error: Error) =>
  logger?.warn(
    { stage, engine: primary, err: error.message },
    'voice: hosted speech engine failed, used the embedded one',
  );

/**
 * Call audio and speech: CALL_AUDIO_FACTORY for the SIP side (one RTP session per call) and the
 * recogniser and synthesiser the configuration names (docs/voice.md).
 */
@Module({
  imports: [],
  providers: [
    { provide: VOICE_CONFIG, useFactory: () => loadVoiceConfig() },
    { provide: CALL_AUDIO_FACTORY, useClass: RtpCallAudioFactory },
    {
      // loaded once; every call shares the session (per-call state is a few KB)
      provide: VOICE_ACTIVITY,
      useFactory: async (config: VoiceConfig, logger: Logger | null, status: ComponentStatus | null) => {
        const vad = await loadVoiceActivity({ kind: config.turnTaking.vad });
        status?.set('voice.vad', vad.kind);
        if (vad.error && config.turnTaking.vad === 'silero') {
          logger?.warn({ err: vad.error }, 'voice: the Silero VAD model did not load, the energy threshold decides');
        }
        return vad;
      },
      inject: [VOICE_CONFIG, { token: LOGGER, optional: true }, { token: ComponentStatus, optional: true }],
    },
    {
      provide: SPEECH_RECOGNIZER,
      useFactory: (config: VoiceConfig, logger: Logger | null) => recognizerFor(config, fallbackNotice(logger)),
      inject: [VOICE_CONFIG, { token: LOGGER, optional: true }],
    },
    {
      provide: SPEECH_SYNTHESIZER,
      useFactory: (config: VoiceConfig, logger: Logger | null) => synthesizerFor(config, fallbackNotice(logger)),
      inject: [VOICE_CONFIG, { token: LOGGER, optional: true }],
    },
  ],
  exports: [VOICE_CONFIG, VOICE_ACTIVITY, CALL_AUDIO_FACTORY, SPEECH_RECOGNIZER, SPEECH_SYNTHESIZER],
})
export class VoiceModule {}
