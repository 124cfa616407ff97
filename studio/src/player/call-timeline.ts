/**
 * Where each turn of a call sits in its recording (issue 50's call player). The recording API
 * serves one WAV file: 8 kHz 16-bit PCM, two channels, left what Parley heard from the caller,
 * right what the agent said (src/voice/recording, docs/voice.md#call-recording), in the call's real
 * time from the moment the call was answered. The turns carry when the runtime took each input
 * (`user_input_datetime`), not when speech began, so a turn starts where the caller's speech that
 * led to it starts: the last stretch of speech on the caller's channel before that instant.
 */

/** A recording's two channels as samples from -1 to 1. */
export interface CallAudio {
  rate: number;
  caller: Float32Array;
  agent: Float32Array;
}

/** The two channels of a 16-bit PCM WAV file (mono: the one channel is both); anything else throws. */
export function parseWav(bytes: ArrayBuffer): CallAudio {
  const view = new DataView(bytes);
  const tag = (at: number) => String.fromCharCode(...new Uint8Array(bytes, at, 4));
  if (bytes.byteLength < 12 || tag(0) !== 'RIFF' || tag(8) !== 'WAVE') throw new Error('not a WAV file');
  let at = 12;
  let channels = 0;
  let rate = 0;
  let bits = 0;
  while (at + 8 <= bytes.byteLength) {
    const id = tag(at);
    const size = view.getUint32(at + 4, true);
    const body = at + 8;
    if (id === 'fmt ') {
      if (view.getUint16(body, true) !== 1) throw new Error('not PCM');
      channels = view.getUint16(body + 2, true);
      rate = view.getUint32(body + 4, true);
      bits = view.getUint16(body + 14, true);
    } else if (id === 'data') {
      if (bits !== 16 || channels < 1 || channels > 2) throw new Error('not 16-bit mono or stereo');
      const frames = Math.floor(Math.min(size, bytes.byteLength - body) / (2 * channels));
      const caller = new Float32Array(frames);
      const agent = new Float32Array(frames);
      for (let i = 0; i < frames; i++) {
        const p = body + i * 2 * channels;
        caller[i] = view.getInt16(p, true) / 32768;
        agent[i] = channels === 2 ? view.getInt16(p + 2, true) / 32768 : caller[i];
      }
      return { rate, caller, agent };
    }
    at = body + size + (size % 2);
  }
  throw new Error('no audio in the WAV file');
}

export interface Span {
  start: number;
  end: number;
}

/** 20 ms frames, as the voice loop hears them */
const FRAME_S = 0.02;
/** loud enough to be speech: the voice loop's floor (RMS 300 of 32768) with room for comfort noise */
const SPEECH_RMS = 500 / 32768;
/** pauses shorter than this stay inside one stretch of speech (between words and sentences) */
const BRIDGE_S = 0.6;

/** The stretches of speech of one channel, in seconds. */
export function speechSpans(samples: Float32Array, rate: number): Span[] {
  const frame = Math.max(1, Math.round(rate * FRAME_S));
  const spans: Span[] = [];
  for (let i = 0; i < samples.length; i += frame) {
    let sum = 0;
    const end = Math.min(samples.length, i + frame);
    for (let j = i; j < end; j++) sum += samples[j] * samples[j];
    if (Math.sqrt(sum / (end - i)) < SPEECH_RMS) continue;
    const start = i / rate;
    const last = spans[spans.length - 1];
    if (last && start - last.end <= BRIDGE_S) last.end = end / rate;
    else spans.push({ start, end: end / rate });
  }
  return spans;
}

export interface TimedTurn {
  user_input?: string | null;
  user_input_datetime?: string | null;
}

/**
 * Each turn's start in the recording, in seconds, never earlier than the turn before. The greeting
 * (turn 0, or any turn without the caller's words) starts where the turn before ended; a user
 * turn at the last stretch of the caller's speech that began before its input was taken (and after
 * the turn before); when the times do not tell (a frozen clock), the next stretch in order.
 */
export function turnStarts(turns: TimedTurn[], startedAt: string, callerSpans: Span[], duration: number): number[] {
  const origin = Date.parse(startedAt);
  const starts: number[] = [];
  let previous = 0;
  for (const [i, turn] of turns.entries()) {
    if (i === 0 || !turn.user_input) {
      starts.push(previous);
      continue;
    }
    const after = callerSpans.filter((s) => s.start > previous);
    const taken = turn.user_input_datetime ? (Date.parse(turn.user_input_datetime) - origin) / 1000 : NaN;
    const before = Number.isFinite(taken) && taken > previous ? after.filter((s) => s.start < taken) : [];
    const span = before[before.length - 1] ?? after[0];
    const start = span ? span.start : Number.isFinite(taken) && taken > previous ? taken : previous;
    previous = Math.min(duration, start);
    starts.push(previous);
  }
  return starts;
}

/** The turn playing at `position`: the last one that started at or before it. */
export function turnAt(starts: number[], position: number): number {
  let current = 0;
  for (const [i, start] of starts.entries()) if (start <= position + 1e-3) current = i;
  return current;
}

export const clock = (seconds: number) => {
  const s = Math.max(0, Math.floor(seconds));
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, '0')}`;
};
