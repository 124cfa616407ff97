/**
 * Sample-rate conversion between the phone's 8 kHz, the recogniser's 16 kHz and espeak-ng's
 * 22.05 kHz. Linear interpolation, after a short moving-average low-pass when reducing the rate:
 * plenty for speech the embedded recogniser hears through G.711 anyway.
 */
export function resample(pcm: Int16Array, fromRate: number, toRate: number): Int16Array {
  if (fromRate === toRate || pcm.length === 0) return pcm.slice();
  const source = toRate < fromRate ? lowPass(pcm, Math.max(1, Math.round(fromRate / toRate))) : pcm;
  const length = Math.max(1, Math.floor((pcm.length * toRate) / fromRate));
  const out = new Int16Array(length);
  const step = fromRate / toRate;
  for (let i = 0; i < length; i++) {
    const x = i * step;
    const i0 = Math.floor(x);
    const i1 = Math.min(i0 + 1, source.length - 1);
    const frac = x - i0;
    out[i] = Math.round(source[Math.min(i0, source.length - 1)] * (1 - frac) + source[i1] * frac);
  }
  return out;
}

function lowPass(pcm: Int16Array, width: number): Float32Array {
  const out = new Float32Array(pcm.length);
  let sum = 0;
  for (let i = 0; i < pcm.length; i++) {
    sum += pcm[i];
    if (i >= width) sum -= pcm[i - width];
    out[i] = sum / Math.min(i + 1, width);
  }
  return out;
}

/** Root mean square of a frame, in linear 16-bit units. */
export function rms(pcm: Int16Array): number {
  if (pcm.length === 0) return 0;
  let sum = 0;
  for (let i = 0; i < pcm.length; i++) sum += pcm[i] * pcm[i];
  return Math.sqrt(sum / pcm.length);
}
