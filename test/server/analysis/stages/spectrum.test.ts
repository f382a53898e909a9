/**
 * The screen check's spectra (spectrum.ts): the planned FFT against a plain 2-D DFT, and the
 * median by selection against sorting (the value the check's ring medians took before).
 */
import { describe, expect, it } from 'vitest';
import { kthSmallest, powerSpectra, powerSpectrum } from '../../../../server/analysis/stages/spectrum.js';

/** A deterministic pseudo-random sequence (xorshift), 0-1. */
function random(seed: number): () => number {
  let s = seed >>> 0 || 1;
  return () => {
    s ^= s << 13;
    s ^= s >>> 17;
    s ^= s << 5;
    return (s >>> 0) / 2 ** 32;
  };
}

/** |DFT|² of the Hann-windowed, mean-removed plane, term by term. */
function naivePower(plane: Float64Array, n: number): Float64Array {
  const mean = plane.reduce((a, b) => a + b, 0) / plane.length;
  const w = (i: number): number => 0.5 - 0.5 * Math.cos((2 * Math.PI * i) / (n - 1));
  const p = new Float64Array(n * n);
  for (let ky = 0; ky < n; ky++)
    for (let kx = 0; kx < n; kx++) {
      let re = 0;
      let im = 0;
      for (let y = 0; y < n; y++)
        for (let x = 0; x < n; x++) {
          const v = (plane[y * n + x]! - mean) * w(x) * w(y);
          const a = (-2 * Math.PI * (kx * x + ky * y)) / n;
          re += v * Math.cos(a);
          im += v * Math.sin(a);
        }
      p[ky * n + kx] = re * re + im * im;
    }
  return p;
}

describe('spectra of the screen check', () => {
  it('match a plain DFT, one plane or two at once', () => {
    const n = 16;
    const r = random(7);
    const a = Float64Array.from({ length: n * n }, () => r() * 255);
    const b = Float64Array.from({ length: n * n }, (_, i) => 40 * Math.sin((2 * Math.PI * 5 * (i % n)) / n) + r() * 10);
    const [pa, pb] = powerSpectra(a, b, n);
    for (const [got, plane] of [
      [powerSpectrum(a, n), a],
      [pa, a],
      [pb, b],
    ] as const) {
      const want = naivePower(plane, n);
      const scale = Math.max(...want);
      for (let i = 0; i < want.length; i++) expect(Math.abs(got[i]! - want[i]!) / scale).toBeLessThan(1e-9);
    }
    // The sine at 5 cycles across shows as b's peak.
    const peak = pb.indexOf(Math.max(...pb.subarray(1, n / 2)));
    expect(peak).toBe(5);
  });

  it('takes the median value sorting gives, duplicates and even lengths included', () => {
    const r = random(11);
    for (const length of [1, 2, 3, 10, 11, 257, 1000]) {
      for (const repeats of [false, true]) {
        const values = Float64Array.from({ length }, () => (repeats ? Math.floor(r() * 4) : r() * 1e6));
        const sorted = Float64Array.from(values).sort();
        for (const k of [0, length >> 1, length - 1]) expect(kthSmallest(Float64Array.from(values), k)).toBe(sorted[k]);
      }
    }
  });
});
