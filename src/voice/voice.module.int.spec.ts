import { NestFactory } from '@nestjs/core';
import { CALL_AUDIO_FACTORY, type CallAudio, type CallAudioFactory } from './call-media.port';
import {
  SPEECH_RECOGNIZER,
  SPEECH_SYNTHESIZER,
  type SpeechRecognizer,
  type SpeechSynthesizer,
} from './speech/speech.port';
import { VoiceModule } from './voice.module';

describe('VoiceModule', () => {
  it('provides a call audio factory on the configured ports and the embedded speech engines', async () => {
    const saved = { min: process.env.RTP_PORT_MIN, max: process.env.RTP_PORT_MAX };
    process.env.RTP_PORT_MIN = '32002';
    process.env.RTP_PORT_MAX = '32100';
    const app = await NestFactory.createApplicationContext(VoiceModule, { logger: false });
    let audio: CallAudio | null = null;
    try {
      audio = await app.get<CallAudioFactory>(CALL_AUDIO_FACTORY).open('127.0.0.1');
      expect(audio.localPort).toBeGreaterThanOrEqual(32002);
      expect(audio.localPort).toBeLessThanOrEqual(32100);
      expect(app.get<SpeechRecognizer>(SPEECH_RECOGNIZER).name).toBe('pocketsphinx');
      expect(app.get<SpeechSynthesizer>(SPEECH_SYNTHESIZER).name).toBe('espeak-ng');
    } finally {
      await audio?.close();
      await app.close();
      process.env.RTP_PORT_MIN = saved.min;
      process.env.RTP_PORT_MAX = saved.max;
      if (saved.min === undefined) delete process.env.RTP_PORT_MIN;
      if (saved.max === undefined) delete process.env.RTP_PORT_MAX;
    }
  });
});
