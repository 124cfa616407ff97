/**
 * The caller's ear: which received RTP packets carry the agent's voice, and when it started and
 * stopped. Parley fills the line with comfort silence (the codec's zero) whenever it is not
 * speaking, so "the agent's first audio" is the first packet loud enough to be speech, not the
 * first packet.
 */

/**
 * RMS of 16-bit PCM at or above which a 20 ms packet counts as voiced. G.711's silence decodes to
 * 0 (µ-law 0xFF) or ±8 (A-law 0xD5); espeak-ng's quietest syllables are in the hundreds.
 */
export const VOICED_RMS = 100;

function rmsOf(pcm: Int16Array): number {
  if (pcm.length === 0) return 0;
  let sum = 0;
  for (let i = 0; i < pcm.length; i++) sum += pcm[i] * pcm[i];
  return Math.sqrt(sum / pcm.length);
}

export const isVoiced = (pcm: Int16Array, threshold = VOICED_RMS): boolean => rmsOf(pcm) >= threshold;

/**
 * PCM cut to end at its last voiced 20 ms frame (160 samples at 8 kHz), so the last packet a caller
 * sends of it is the end of the utterance: a rendering's trailing silence would otherwise start the
 * server's end-of-utterance wait before the caller's clock does.
 */
export function trimTrailingSilence(pcm: Int16Array, frame = 160, threshold = VOICED_RMS): Int16Array {
  let end = Math.ceil(pcm.length / frame) * frame;
  while (end > 0 && !isVoiced(pcm.subarray(end - frame, Math.min(end, pcm.length)), threshold)) end -= frame;
  return pcm.slice(0, Math.min(end, pcm.length));
}

/**
 * Follows the agent's audio as packets arrive (each with its arrival time, ms): `firstVoicedAfter`
 * answers a turn's latency, `quietFor` tells when the agent has finished (so the caller does not
 * talk over it, which would be barge-in).
 */
export class AgentAudioWatch {
  private lastVoicedAt = -Infinity;
  private armedAt: number | null = null;
  private firstAfterArm: number | null = null;
  private waiter: ((at: number) => void) | null = null;
  /** voiced packets seen so far */
  voiced = 0;

  constructor(private readonly threshold = VOICED_RMS) {}

  /** a packet arrived at `at` carrying `pcm` */
  push(pcm: Int16Array, at: number): void {
    if (!isVoiced(pcm, this.threshold)) return;
    this.voiced++;
    this.lastVoicedAt = at;
    if (this.armedAt !== null && this.firstAfterArm === null && at >= this.armedAt) {
      this.firstAfterArm = at;
      this.waiter?.(at);
      this.waiter = null;
    }
  }

  /** ms since the last voiced packet (Infinity when none came yet) */
  quietFor(now: number): number {
    return now - this.lastVoicedAt;
  }

  /** the caller finished speaking at `at`: the next voiced packet from then on is the answer */
  arm(at: number): void {
    this.armedAt = at;
    this.firstAfterArm = null;
    this.waiter = null;
  }

  /** the arrival time of the first voiced packet since arm() (resolves once it comes) */
  firstVoicedAfter(): Promise<number> {
    if (this.firstAfterArm !== null) return Promise.resolve(this.firstAfterArm);
    return new Promise((resolve) => (this.waiter = resolve));
  }
}

/**
 * Samples from the first voiced 20 ms frame to the end of the last one (0 when none is voiced):
 * the length of what was said, whatever silence a recording or a voice detector put around it.
 */
export function voicedSpan(pcm: Int16Array, frame = 160, threshold = VOICED_RMS): number {
  let first = -1;
  let last = -1;
  for (let i = 0; i < pcm.length; i += frame) {
    if (!isVoiced(pcm.subarray(i, Math.min(i + frame, pcm.length)), threshold)) continue;
    if (first < 0) first = i;
    last = Math.min(i + frame, pcm.length);
  }
  return first < 0 ? 0 : last - first;
}
