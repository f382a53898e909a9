/** Level measures of 16-bit samples. */

const FULL_SCALE = 32768;

/** RMS of `samples` in dB full scale (-Infinity for digital silence). */
export function rmsDbfs(samples: Int16Array): number {
  if (samples.length === 0) return Number.NEGATIVE_INFINITY;
  let sum = 0;
  for (const s of samples) sum += s * s;
  return 20 * Math.log10(Math.sqrt(sum / samples.length) / FULL_SCALE);
}

/** Share of samples at (or within one step of) full scale: a clipped, distorted recording. */
export function clippedRatio(samples: Int16Array): number {
  if (samples.length === 0) return 0;
  let clipped = 0;
  for (const s of samples) if (s >= 32766 || s <= -32767) clipped++;
  return clipped / samples.length;
}

/** Most gain {@link normalised} applies (30 dB): near-silence is not raised into "speech". */
const MAX_GAIN = 31.6;

/**
 * `samples` scaled so the peak sits at about -3 dBFS (at most {@link MAX_GAIN}). Voice activity
 * detection runs on this so that it answers "is this speech?" for quiet speech too; the level is
 * judged on its own.
 */
export function normalised(samples: Int16Array): Int16Array {
  let peak = 0;
  for (const s of samples) peak = Math.max(peak, Math.abs(s));
  if (peak === 0) return samples;
  const gain = Math.min(MAX_GAIN, (0.7 * FULL_SCALE) / peak);
  return Int16Array.from(samples, (s) => Math.max(-32768, Math.min(32767, Math.round(s * gain))));
}
