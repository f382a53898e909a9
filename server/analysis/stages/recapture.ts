/**
 * `internet_detection`: is this a photo of a screen? A screen is a fine grid of RGB sub-pixels;
 * photographed again it leaves periodic colour patterns (moiré) that a photographed card or
 * paper does not. The chroma planes (R−G, B−G) of a few tiles are Fourier-transformed and the
 * strongest isolated non-DC peak is compared with the spectrum level at the same frequency
 * radius. Printed halftones can also be periodic; they are mostly colour-balanced, which is
 * why chroma (not luma) is used. Rates on the generated set are printed by `npm run eval`.
 */
import { fitRaster, type Raster } from '../raster.js';

export const RECAPTURE_SETTINGS = {
  tile: 256,
  /** Peak-to-ring-median power ratio above which the pattern is called periodic. */
  minPeakRatio: 3000,
} as const;

export interface RecaptureResult {
  readonly screen: boolean;
  /** Strongest peak-to-background ratio found. */
  readonly peakRatio: number;
  /** Labels for `internet_detection_location.guess_labels`. */
  readonly labels: readonly string[];
}

/** In-place radix-2 FFT of (re, im) with length a power of two. */
function fft(re: Float64Array, im: Float64Array): void {
  const n = re.length;
  for (let i = 1, j = 0; i < n; i++) {
    let bit = n >> 1;
    for (; j & bit; bit >>= 1) j ^= bit;
    j ^= bit;
    if (i < j) {
      [re[i], re[j]] = [re[j]!, re[i]!];
      [im[i], im[j]] = [im[j]!, im[i]!];
    }
  }
  for (let len = 2; len <= n; len <<= 1) {
    const ang = (-2 * Math.PI) / len;
    const wr = Math.cos(ang);
    const wi = Math.sin(ang);
    for (let i = 0; i < n; i += len) {
      let cr = 1;
      let ci = 0;
      for (let k = 0; k < len / 2; k++) {
        const a = i + k;
        const b = a + len / 2;
        const tr = re[b]! * cr - im[b]! * ci;
        const ti = re[b]! * ci + im[b]! * cr;
        re[b] = re[a]! - tr;
        im[b] = im[a]! - ti;
        re[a] = re[a]! + tr;
        im[a] = im[a]! + ti;
        const ncr = cr * wr - ci * wi;
        ci = cr * wi + ci * wr;
        cr = ncr;
      }
    }
  }
}

/** Power spectrum of an N×N plane (Hann-windowed, mean removed). */
function powerSpectrum(plane: Float64Array, n: number): Float64Array {
  let mean = 0;
  for (const v of plane) mean += v;
  mean /= plane.length;
  const re = new Float64Array(n * n);
  const im = new Float64Array(n * n);
  for (let y = 0; y < n; y++) {
    const wy = 0.5 - 0.5 * Math.cos((2 * Math.PI * y) / (n - 1));
    for (let x = 0; x < n; x++) {
      const wx = 0.5 - 0.5 * Math.cos((2 * Math.PI * x) / (n - 1));
      re[y * n + x] = (plane[y * n + x]! - mean) * wx * wy;
    }
  }
  const rr = new Float64Array(n);
  const ri = new Float64Array(n);
  for (let y = 0; y < n; y++) {
    rr.set(re.subarray(y * n, y * n + n));
    ri.set(im.subarray(y * n, y * n + n));
    fft(rr, ri);
    re.set(rr, y * n);
    im.set(ri, y * n);
  }
  for (let x = 0; x < n; x++) {
    for (let y = 0; y < n; y++) {
      rr[y] = re[y * n + x]!;
      ri[y] = im[y * n + x]!;
    }
    fft(rr, ri);
    for (let y = 0; y < n; y++) {
      re[y * n + x] = rr[y]!;
      im[y * n + x] = ri[y]!;
    }
  }
  const p = new Float64Array(n * n);
  for (let i = 0; i < p.length; i++) p[i] = re[i]! * re[i]! + im[i]! * im[i]!;
  return p;
}

/** Per tile size: ring (rounded radius) of every frequency, and which frequencies are scored. */
const geometry = new Map<number, { ring: Uint16Array; scored: Uint8Array; ringSizes: Uint32Array }>();

function tileGeometry(n: number): { ring: Uint16Array; scored: Uint8Array; ringSizes: Uint32Array } {
  let g = geometry.get(n);
  if (g) return g;
  const maxR = n / 2;
  const ring = new Uint16Array(n * n);
  const scored = new Uint8Array(n * n);
  const ringSizes = new Uint32Array(maxR + 2);
  // JPEG's 8x8 blocks (and 2x2 chroma subsampling) put energy on lines at multiples of n/8
  // cycles: every JPEG has those, screens or not.
  const nearGrid = (f: number): boolean => {
    const m8 = f % (n / 8);
    return m8 <= 2 || m8 >= n / 8 - 2;
  };
  for (let y = 0; y < n; y++) {
    for (let x = 0; x < n; x++) {
      const fy = y > n / 2 ? y - n : y;
      const fx = x > n / 2 ? x - n : x;
      const r = Math.min(maxR + 1, Math.round(Math.hypot(fx, fy)));
      ring[y * n + x] = r;
      ringSizes[r]!++;
      // Below n/16 cycles per tile is image content, not a fine periodic pattern.
      scored[y * n + x] = r >= n / 16 && r <= maxR && !nearGrid(x) && !nearGrid(y) ? 1 : 0;
    }
  }
  g = { ring, scored, ringSizes };
  geometry.set(n, g);
  return g;
}

/** Strongest peak / median-of-its-ring ratio in one spectrum, ignoring low frequencies and JPEG grid lines. */
function peakRatio(p: Float64Array, n: number): number {
  const { ring, scored, ringSizes } = tileGeometry(n);
  const rings: Float64Array[] = Array.from(ringSizes, (size) => new Float64Array(size));
  const fill = new Uint32Array(ringSizes.length);
  for (let i = 0; i < p.length; i++) {
    const r = ring[i]!;
    rings[r]![fill[r]!++] = p[i]!;
  }
  const medians = rings.map((values) => (values.length ? values.sort()[values.length >> 1]! : 0));
  let best = 0;
  for (let i = 0; i < p.length; i++) {
    if (!scored[i]) continue;
    const m = medians[ring[i]!]!;
    if (m > 0) best = Math.max(best, p[i]! / m);
  }
  return best;
}

/** Looks for screen moiré in the chroma planes of a few tiles. */
export async function detectRecapture(raster: Raster): Promise<RecaptureResult> {
  const r = await fitRaster(raster, 1600);
  const n = RECAPTURE_SETTINGS.tile;
  if (r.channels !== 3 || r.width < n || r.height < n) return { screen: false, peakRatio: 0, labels: [] };
  let best = 0;
  const positions: [number, number][] = [];
  for (const [fx, fy] of [
    [0.5, 0.5],
    [0.35, 0.35],
    [0.65, 0.35],
    [0.35, 0.65],
    [0.65, 0.65],
  ] as const)
    positions.push([Math.round(fx * r.width - n / 2), Math.round(fy * r.height - n / 2)]);
  for (const [x0, y0] of positions) {
    const x = Math.max(0, Math.min(r.width - n, x0));
    const y = Math.max(0, Math.min(r.height - n, y0));
    for (const channel of [0, 2]) {
      const plane = new Float64Array(n * n);
      for (let yy = 0; yy < n; yy++) {
        for (let xx = 0; xx < n; xx++) {
          const i = ((y + yy) * r.width + x + xx) * 3;
          plane[yy * n + xx] = r.data[i + channel]! - r.data[i + 1]!;
        }
      }
      best = Math.max(best, peakRatio(powerSpectrum(plane, n), n));
    }
  }
  const screen = best >= RECAPTURE_SETTINGS.minPeakRatio;
  return { screen, peakRatio: Math.round(best), labels: screen ? ['screen', 'moire_pattern'] : [] };
}
