/**
 * The 2-D power spectra the screen check (recapture.ts) scores its tiles by: a radix-2 FFT with
 * its bit reversal and twiddle factors made once per length, a Hann window made once per tile
 * size, and a median by selection rather than sorting. Moved here from recapture.ts and made
 * faster without changing a number it returns (docs/performance.md, 2026-11-28).
 */

/**
 * Per FFT length: the bit-reversal permutation and, per butterfly span, the twiddle factors as
 * the recurrence below makes them (computed once, not again for every butterfly group: the same
 * numbers, so every score is unchanged; docs/performance.md, 2026-11-28).
 */
interface FftPlan {
  readonly swaps: Uint32Array;
  /** For span len = 2, 4, …, n: len / 2 (cos, sin) pairs, concatenated. */
  readonly twiddles: Float64Array;
}
const fftPlans = new Map<number, FftPlan>();

function fftPlan(n: number): FftPlan {
  let plan = fftPlans.get(n);
  if (plan) return plan;
  const swaps: number[] = [];
  for (let i = 1, j = 0; i < n; i++) {
    let bit = n >> 1;
    for (; j & bit; bit >>= 1) j ^= bit;
    j ^= bit;
    if (i < j) swaps.push(i, j);
  }
  const twiddles = new Float64Array(2 * (n - 1));
  for (let len = 2, at = 0; len <= n; len <<= 1) {
    const ang = (-2 * Math.PI) / len;
    const wr = Math.cos(ang);
    const wi = Math.sin(ang);
    let cr = 1;
    let ci = 0;
    for (let k = 0; k < len / 2; k++, at += 2) {
      twiddles[at] = cr;
      twiddles[at + 1] = ci;
      const ncr = cr * wr - ci * wi;
      ci = cr * wi + ci * wr;
      cr = ncr;
    }
  }
  plan = { swaps: Uint32Array.from(swaps), twiddles };
  fftPlans.set(n, plan);
  return plan;
}

/** In-place radix-2 FFT of (re, im) with length a power of two. */
function fft(re: Float64Array, im: Float64Array): void {
  const n = re.length;
  const { swaps, twiddles } = fftPlan(n);
  for (let s = 0; s < swaps.length; s += 2) {
    const i = swaps[s]!;
    const j = swaps[s + 1]!;
    const tr = re[i]!;
    re[i] = re[j]!;
    re[j] = tr;
    const ti = im[i]!;
    im[i] = im[j]!;
    im[j] = ti;
  }
  for (let len = 2, base = 0; len <= n; base += len, len <<= 1) {
    const half = len >> 1;
    for (let i = 0; i < n; i += len) {
      for (let k = 0; k < half; k++) {
        const cr = twiddles[base + 2 * k]!;
        const ci = twiddles[base + 2 * k + 1]!;
        const a = i + k;
        const b = a + half;
        const tr = re[b]! * cr - im[b]! * ci;
        const ti = re[b]! * ci + im[b]! * cr;
        re[b] = re[a]! - tr;
        im[b] = im[a]! - ti;
        re[a] = re[a]! + tr;
        im[a] = im[a]! + ti;
      }
    }
  }
}

/** Hann window weights of length n (one table per tile size). */
const hannTables = new Map<number, Float64Array>();
function hann(n: number): Float64Array {
  let w = hannTables.get(n);
  if (!w) {
    w = Float64Array.from({ length: n }, (_, i) => 0.5 - 0.5 * Math.cos((2 * Math.PI * i) / (n - 1)));
    hannTables.set(n, w);
  }
  return w;
}

/** An N×N plane Hann-windowed with its mean removed, as the spectra take it. */
function windowed(plane: Float64Array, n: number): Float64Array {
  let mean = 0;
  for (const v of plane) mean += v;
  mean /= plane.length;
  const w = hann(n);
  const out = new Float64Array(n * n);
  for (let y = 0; y < n; y++) {
    const wy = w[y]!;
    for (let x = 0; x < n; x++) out[y * n + x] = (plane[y * n + x]! - mean) * w[x]! * wy;
  }
  return out;
}

/**
 * In-place 2-D FFT of an N×N complex array: rows, then columns. The rows are transformed where
 * they lie; the columns after a transpose, as rows, and transposed back: each 1-D FFT does the
 * same arithmetic on the same numbers as when they were copied out one by one, with the plane
 * read in order rather than a column's stride (docs/performance.md, 2026-11-29).
 */
function fft2(re: Float64Array, im: Float64Array, n: number): void {
  for (let y = 0; y < n; y++) fft(re.subarray(y * n, y * n + n), im.subarray(y * n, y * n + n));
  const tr = transposed(re, n);
  const ti = transposed(im, n);
  for (let x = 0; x < n; x++) fft(tr.subarray(x * n, x * n + n), ti.subarray(x * n, x * n + n));
  transposeInto(tr, re, n);
  transposeInto(ti, im, n);
}

/** The N×N plane's transpose, in a new array. */
function transposed(a: Float64Array, n: number): Float64Array {
  const t = new Float64Array(n * n);
  transposeInto(a, t, n);
  return t;
}

/** Writes the transpose of the N×N plane `a` into `t`, in 16×16 blocks (both planes read and written near in memory). */
function transposeInto(a: Float64Array, t: Float64Array, n: number): void {
  const B = 16;
  for (let y0 = 0; y0 < n; y0 += B) {
    for (let x0 = 0; x0 < n; x0 += B) {
      const y1 = Math.min(n, y0 + B);
      const x1 = Math.min(n, x0 + B);
      for (let y = y0; y < y1; y++) for (let x = x0; x < x1; x++) t[x * n + y] = a[y * n + x]!;
    }
  }
}

/** Power spectrum of an N×N plane (Hann-windowed, mean removed). */
export function powerSpectrum(plane: Float64Array, n: number): Float64Array {
  const re = windowed(plane, n);
  const im = new Float64Array(n * n);
  fft2(re, im, n);
  const p = new Float64Array(n * n);
  for (let i = 0; i < p.length; i++) p[i] = re[i]! * re[i]! + im[i]! * im[i]!;
  return p;
}

/**
 * Power spectra of two real N×N planes from one complex FFT (a as the real part, b as the
 * imaginary): half the work of two, and the chroma planes are always wanted together.
 * A[k] = (Z[k] + conj Z[−k]) / 2 and B[k] = (Z[k] − conj Z[−k]) / 2i.
 */
export function powerSpectra(a: Float64Array, b: Float64Array, n: number): [Float64Array, Float64Array] {
  const re = windowed(a, n);
  const im = windowed(b, n);
  fft2(re, im, n);
  const pa = new Float64Array(n * n);
  const pb = new Float64Array(n * n);
  for (let y = 0; y < n; y++) {
    for (let x = 0; x < n; x++) {
      const k = y * n + x;
      const m = ((n - y) % n) * n + ((n - x) % n);
      const sr = re[k]! + re[m]!;
      const di = im[k]! - im[m]!;
      const dr = re[k]! - re[m]!;
      const si = im[k]! + im[m]!;
      pa[k] = (sr * sr + di * di) / 4;
      pb[k] = (dr * dr + si * si) / 4;
    }
  }
  return [pa, pb];
}

/**
 * The `k`-th smallest value of `a` (0-based), by quickselect, reordering `a`: the value sorting
 * would put at `k`, without sorting (the rings' medians were most of this check's time).
 */
export function kthSmallest(a: Float64Array, k: number): number {
  let lo = 0;
  let hi = a.length - 1;
  while (lo < hi) {
    const pivot = a[(lo + hi) >> 1]!;
    let i = lo;
    let j = hi;
    while (i <= j) {
      while (a[i]! < pivot) i++;
      while (a[j]! > pivot) j--;
      if (i <= j) {
        const t = a[i]!;
        a[i] = a[j]!;
        a[j] = t;
        i++;
        j--;
      }
    }
    if (k <= j) hi = j;
    else if (k >= i) lo = i;
    else return a[k]!;
  }
  return a[k]!;
}

/**
 * The chroma planes' power spectra and that of their complex sum z = (R−G) + ω²(B−G), ω = e^(2πi/3),
 * i.e. R + ωG + ω²B: zero on grey, its angle the hue. From the same one complex FFT as
 * {@link powerSpectra} (FFT(z) = A + ω²B is linear in the planes' transforms A and B). A hue that
 * turns steadily across the picture (a screen's R, G, B sub-pixels sampled at a drifting phase)
 * is one complex exponential: power at +f only, where a colour pattern that merely swings
 * between two hues has power at +f and −f alike (hue-beat.ts).
 */
export function chromaSpectra(a: Float64Array, b: Float64Array, n: number): { rg: Float64Array; bg: Float64Array; hue: Float64Array } {
  const re = windowed(a, n);
  const im = windowed(b, n);
  fft2(re, im, n);
  const rg = new Float64Array(n * n);
  const bg = new Float64Array(n * n);
  const hue = new Float64Array(n * n);
  // ω² = −1/2 − i√3/2
  const wr = -0.5;
  const wi = -Math.sqrt(3) / 2;
  for (let y = 0; y < n; y++) {
    for (let x = 0; x < n; x++) {
      const k = y * n + x;
      const m = ((n - y) % n) * n + ((n - x) % n);
      // A = (Z[k] + conj Z[m]) / 2, B = (Z[k] − conj Z[m]) / 2i
      const ar = (re[k]! + re[m]!) / 2;
      const ai = (im[k]! - im[m]!) / 2;
      const br = (im[k]! + im[m]!) / 2;
      const bi = -(re[k]! - re[m]!) / 2;
      rg[k] = ar * ar + ai * ai;
      bg[k] = br * br + bi * bi;
      const hr = ar + wr * br - wi * bi;
      const hi = ai + wr * bi + wi * br;
      hue[k] = hr * hr + hi * hi;
    }
  }
  return { rg, bg, hue };
}

/** Per tile size n: every frequency's ring (its rounded radius, capped at n/2 + 1) and each ring's size. */
export interface RingGeometry {
  readonly ring: Uint16Array;
  readonly ringSizes: Uint32Array;
}
const ringGeometries = new Map<number, RingGeometry>();

/** The rings of an n×n spectrum (FFT order), made once per size. */
export function ringGeometry(n: number): RingGeometry {
  let g = ringGeometries.get(n);
  if (g) return g;
  const maxR = n / 2;
  const ring = new Uint16Array(n * n);
  const ringSizes = new Uint32Array(maxR + 2);
  for (let y = 0; y < n; y++) {
    for (let x = 0; x < n; x++) {
      const fy = y > n / 2 ? y - n : y;
      const fx = x > n / 2 ? x - n : x;
      const r = Math.min(maxR + 1, Math.round(Math.hypot(fx, fy)));
      ring[y * n + x] = r;
      ringSizes[r]!++;
    }
  }
  g = { ring, ringSizes };
  ringGeometries.set(n, g);
  return g;
}

/** Median power of every ring of an n×n spectrum (the upper median of an even ring). */
export function ringMedians(p: Float64Array, n: number): Float64Array {
  const { ring, ringSizes } = ringGeometry(n);
  const rings: Float64Array[] = Array.from(ringSizes, (size) => new Float64Array(size));
  const fill = new Uint32Array(ringSizes.length);
  for (let i = 0; i < p.length; i++) {
    const r = ring[i]!;
    rings[r]![fill[r]!++] = p[i]!;
  }
  return Float64Array.from(rings, (values) => (values.length ? kthSmallest(values, values.length >> 1) : 0));
}

/** The strongest of a spectrum's `scored` frequencies against its ring's median: [ratio, index] (index -1: none). */
export function strongestOverRings(p: Float64Array, ring: Uint16Array, scored: Uint8Array, medians: Float64Array): [number, number] {
  let best = 0;
  let at = -1;
  for (let i = 0; i < p.length; i++) {
    if (!scored[i]) continue;
    const m = medians[ring[i]!]!;
    if (m > 0 && p[i]! / m > best) {
      best = p[i]! / m;
      at = i;
    }
  }
  return [best, at];
}
