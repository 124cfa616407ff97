/** The drawing area every chart shares (SVG user units; the SVG scales to its box). */
export const WIDTH = 640;
export const HEIGHT = 180;
export const PAD = { left: 56, right: 10, top: 10, bottom: 22 };
const PLOT_W = WIDTH - PAD.left - PAD.right;
export const PLOT_H = HEIGHT - PAD.top - PAD.bottom;

/** The axis' top: the smallest 1, 2 or 5 × 10^k at or above `max` (1 for an empty chart). */
export function niceMax(max: number): number {
  if (!(max > 0)) return 1;
  const power = 10 ** Math.floor(Math.log10(max));
  for (const step of [1, 2, 5, 10]) if (step * power >= max) return step * power;
  return 10 * power;
}

/** The left edge of bucket `i`'s slot, and the slot's width, for `n` buckets. */
export const slot = (n: number) => PLOT_W / Math.max(1, n);
export const xOf = (i: number, n: number) => PAD.left + i * slot(n);
export const yOf = (value: number, max: number) => PAD.top + PLOT_H - (Math.min(value, max) / max) * PLOT_H;

/** About `wanted` bucket indices to label along the axis, evenly spaced, the first always. */
export function tickIndices(n: number, wanted = 7): number[] {
  const every = Math.max(1, Math.ceil(n / wanted));
  return Array.from({ length: n }, (_, i) => i).filter((i) => i % every === 0);
}
