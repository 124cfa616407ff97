import type { VoiceCall, VoiceCalls } from '../voice/voice-calls.port';

/**
 * The default VoiceCalls until the media side (issue 36's speech) is wired: it takes each answered
 * call and does nothing with it: no speech, no hang-up. The call goes on until the far end hangs
 * up. This is the seam the speech step fills by providing its own VOICE_CALLS.
 */
export class SilentVoiceCalls implements VoiceCalls {
  async attach(call: VoiceCall): Promise<void> {
    void call;
  }
}
