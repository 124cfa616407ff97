import type { CallAudio } from '../call-media.port';

/**
 * What the turn-taking loop needs of a call's audio beyond the SIP seam (CallAudio): to hear
 * 20 ms frames and digits, to speak, and to stop speaking when the caller barges in.
 */
export interface SpeakingAudio extends CallAudio {
  /** 8 kHz frames as the jitter buffer plays them out (160 samples, comfort silence for gaps) */
  onAudio(listener: (frame: Int16Array) => void): () => void;
  onDtmf(listener: (digit: string) => void): () => void;
  /**
   * Queue 8 kHz PCM behind whatever is playing. Resolves true once its last frame was sent, false
   * when stopPlayback() or close() cut it short. `onFirstPacket` fires as its first frame leaves.
   */
  play(pcm: Int16Array, onFirstPacket?: () => void): Promise<boolean>;
  /** barge-in: drop everything queued and go back to comfort silence at once */
  stopPlayback(): void;
  /** RFC 4733 digits (when negotiated); resolves when sent */
  sendDigits(digits: string): Promise<void>;
  readonly speaking: boolean;
}
