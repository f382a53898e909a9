/** Separable blurs over float planes, where 8-bit rounding would lose what is measured (texture residuals, deconvolution). */

/** A Gaussian kernel of standard deviation `sigma` (radius 3σ, at least 1), normalised. */
export function gaussianKernel(sigma: number): Float32Array {
  const r = Math.max(1, Math.ceil(3 * sigma));
  const k = new Float32Array(2 * r + 1);
  let s = 0;
  for (let i = -r; i <= r; i++) s += k[i + r] = Math.exp(-(i * i) / (2 * sigma * sigma));
  for (let i = 0; i < k.length; i++) k[i]! /= s;
  return k;
}

/** `src` (w × h) convolved with the normalised kernel `k` (odd length) along rows then columns, edges clamped. */
export function separableBlur(src: Float32Array, w: number, h: number, k: ArrayLike<number>): Float32Array {
  const r = k.length >> 1;
  const tmp = new Float32Array(w * h);
  const out = new Float32Array(w * h);
  for (let y = 0; y < h; y++)
    for (let x = 0; x < w; x++) {
      let a = 0;
      for (let i = -r; i <= r; i++) a += k[i + r]! * src[y * w + Math.min(w - 1, Math.max(0, x + i))]!;
      tmp[y * w + x] = a;
    }
  for (let y = 0; y < h; y++)
    for (let x = 0; x < w; x++) {
      let a = 0;
      for (let i = -r; i <= r; i++) a += k[i + r]! * tmp[Math.min(h - 1, Math.max(0, y + i)) * w + x]!;
      out[y * w + x] = a;
    }
  return out;
}
