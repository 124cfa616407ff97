import { ConfigError } from '../platform/config/config';
import { loadVoiceConfig } from './voice-config';

describe('loadVoiceConfig', () => {
  it('defaults to the embedded engines and ports 10000-20000', () => {
    expect(loadVoiceConfig({})).toMatchObject({
      rtpPortMin: 10000,
      rtpPortMax: 20000,
      asr: { engine: 'pocketsphinx', url: null, timeoutMs: 3000 },
      tts: { engine: 'espeak-ng', url: null },
      pocketsphinx: { bin: 'pocketsphinx_continuous', modelDir: '/usr/share/pocketsphinx/model/en-us' },
      espeak: { bin: 'espeak-ng', voice: 'en-us' },
      turnTaking: {
        vad: 'silero',
        endOfUtteranceMs: 600,
        endOfTurnMinMs: 300,
        endOfTurnMaxMs: 1500,
        silencePromptMs: 8000,
        silencePromptsBeforeHangUp: 2,
      },
      recording: { retentionDays: 30 },
    });
    expect(loadVoiceConfig({ VOICE_RECORDING_RETENTION_DAYS: '7' }).recording.retentionDays).toBe(7);
    expect(loadVoiceConfig({ VOICE_VAD: 'energy' }).turnTaking.vad).toBe('energy');
  });

  it('reads the hosted engines', () => {
    const config = loadVoiceConfig({
      VOICE_ASR: 'websocket',
      VOICE_ASR_URL: 'wss://asr.example.com/stream',
      VOICE_TTS: 'openai',
      VOICE_TTS_URL: 'https://api.example.com/v1/',
      VOICE_TTS_VOICE: 'nova',
    });
    expect(config.asr).toMatchObject({ engine: 'websocket', url: 'wss://asr.example.com/stream' });
    expect(config.tts).toMatchObject({ engine: 'openai', url: 'https://api.example.com/v1', voice: 'nova' });
  });

  it.each([
    [{ RTP_PORT_MIN: '80' }, 'RTP_PORT_MIN'],
    [{ RTP_PORT_MIN: '20000', RTP_PORT_MAX: '20000' }, 'RTP_PORT_MAX'],
    [{ VOICE_ASR: 'siri' }, 'VOICE_ASR'],
    [{ VOICE_ASR: 'openai' }, 'VOICE_ASR_URL'],
    [{ VOICE_ASR: 'websocket', VOICE_ASR_URL: 'https://x' }, 'VOICE_ASR_URL'],
    [{ VOICE_TTS: 'openai', VOICE_TTS_URL: 'ftp://x' }, 'VOICE_TTS_URL'],
    [{ VOICE_ASR_TIMEOUT_MS: 'soon' }, 'VOICE_ASR_TIMEOUT_MS'],
    [{ VOICE_END_OF_UTTERANCE_MS: '10' }, 'VOICE_END_OF_UTTERANCE_MS'],
    [{ VOICE_VAD: 'webrtc' }, 'VOICE_VAD'],
    [{ VOICE_END_OF_TURN_MIN_MS: '50' }, 'VOICE_END_OF_TURN_MIN_MS'],
    [{ VOICE_END_OF_TURN_MIN_MS: '900', VOICE_END_OF_TURN_MAX_MS: '800' }, 'VOICE_END_OF_TURN_MAX_MS'],
    [{ VOICE_RECORDING_RETENTION_DAYS: '0' }, 'VOICE_RECORDING_RETENTION_DAYS'],
  ])('rejects %p naming %s', (env, variable) => {
    expect(() => loadVoiceConfig(env)).toThrow(ConfigError);
    expect(() => loadVoiceConfig(env)).toThrow(new RegExp(`^invalid configuration: ${variable} `));
  });
});
