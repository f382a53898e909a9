/**
 * A blurred MRZ zone sharpened by deconvolution before it is read again (mrz.ts): the blur's
 * width measured on the zone's own glyph edges, then Richardson-Lucy with a Gaussian of that
 * width. Only the rectified zone is deconvolved (a few hundred thousand pixels), never the page.
 */
import sharp from 'sharp';
import { gaussianKernel, separableBlur } from '../float-blur.js';
import type { GreyPlane } from '../raster.js';
import type { LocatedMrz } from './mrz-locate.js';

/** Gradient magnitude (central differences) of a float plane. */
function gradient(src: Float32Array, width: number, height: number): Float32Array {
  const out = new Float32Array(src.length);
  for (let y = 1; y < height - 1; y++) {
    for (let x = 1; x < width - 1; x++) {
      const i = y * width + x;
      out[i] = Math.hypot(src[i + 1]! - src[i - 1]!, src[i + width]! - src[i - width]!) / 2;
    }
  }
  return out;
}

/** Blur (σ) added to the zone to measure its own: the re-blur ratio is steepest near the blur's width. */
const REBLUR_SIGMA = 1.5;

/**
 * The Gaussian width (px) of the blur on a zone, from its strongest edges: re-blurred by σb, an
 * edge already blurred by σ loses gradient in the ratio r = √(σ² + σb²) / σ, so σ = σb / √(r² − 1)
 * (the re-blur estimator of Hu and de Haan). The median over the zone's strongest 2 % of edge
 * pixels, where glyph strokes meet paper.
 */
export function estimateBlurSigma(g: GreyPlane): number {
  const { width, height } = g;
  const src = Float32Array.from(g.data);
  const g0 = gradient(src, width, height);
  const g1 = gradient(separableBlur(src, width, height, gaussianKernel(REBLUR_SIGMA)), width, height);
  const sorted = Float32Array.from(g0).sort();
  const cut = sorted[Math.floor(sorted.length * 0.98)]!;
  if (!(cut > 0)) return 0;
  const ratios: number[] = [];
  for (let i = 0; i < g0.length; i++) if (g0[i]! >= cut && g1[i]! > 0) ratios.push(g0[i]! / g1[i]!);
  if (ratios.length === 0) return 0;
  ratios.sort((a, b) => a - b);
  const r = ratios[ratios.length >> 1]!;
  return r <= 1.0001 ? Infinity : REBLUR_SIGMA / Math.sqrt(r * r - 1);
}

/**
 * Richardson-Lucy deconvolution of a grey plane by a Gaussian of width `sigma`: each iteration
 * multiplies the estimate by the blurred ratio of the observed zone to the re-blurred estimate.
 * Grey levels are kept positive (+1) and the result clipped to 0-255.
 */
export function richardsonLucy(g: GreyPlane, sigma: number, iterations: number): GreyPlane {
  const { width, height } = g;
  const k = gaussianKernel(sigma);
  const observed = Float32Array.from(g.data, (v) => v + 1);
  let estimate = Float32Array.from(observed);
  for (let it = 0; it < iterations; it++) {
    const blurred = separableBlur(estimate, width, height, k);
    const ratio = new Float32Array(observed.length);
    for (let i = 0; i < ratio.length; i++) ratio[i] = observed[i]! / Math.max(1e-3, blurred[i]!);
    const correction = separableBlur(ratio, width, height, k);
    const next = new Float32Array(observed.length);
    for (let i = 0; i < next.length; i++) next[i] = estimate[i]! * correction[i]!;
    estimate = next;
  }
  const data = new Uint8Array(estimate.length);
  for (let i = 0; i < data.length; i++) data[i] = Math.max(0, Math.min(255, Math.round(estimate[i]! - 1)));
  return { data, width, height };
}

/**
 * Line height (px) a zone is enlarged to before deconvolution: a small upload's glyphs are too
 * few pixels to sharpen (development stress passports' zones came at 21-23 px).
 */
const DEBLUR_LINE_HEIGHT = 40;
/**
 * The measured blur width is scaled by this for the deconvolution's Gaussian: the phone's own
 * sharpening makes edges look steeper than the blur that ran strokes together. Chosen on the
 * development `hard` stress (1.3: no zone read; 1.8: two of six unread zones read; 2.4: one).
 */
const SIGMA_GAIN = 1.8;
/** Richardson-Lucy iterations: enough to part strokes, few enough not to lift the noise into specks. */
const ITERATIONS = 10;

/** The zone enlarged (at most 2.5×, never shrunk) and deconvolved at its measured blur. */
export async function deblurZone(zone: LocatedMrz): Promise<LocatedMrz> {
  const scale = Math.max(1, Math.min(2.5, DEBLUR_LINE_HEIGHT / Math.max(1, zone.lineHeight)));
  const { plane } = zone;
  let g: GreyPlane = plane;
  if (scale > 1.05) {
    const { data, info } = await sharp(Buffer.from(plane.data.buffer, plane.data.byteOffset, plane.data.byteLength), {
      raw: { width: plane.width, height: plane.height, channels: 1 },
    })
      .resize({ width: Math.round(plane.width * scale), kernel: 'lanczos3' })
      .extractChannel(0)
      .raw()
      .toBuffer({ resolveWithObject: true });
    g = { data: new Uint8Array(data.buffer, data.byteOffset, data.byteLength), width: info.width, height: info.height };
  }
  const measured = estimateBlurSigma(g);
  // No edge steep enough to measure (Infinity): a blur wider than the re-blur; the widest tried.
  const sigma = Math.max(0.8, Math.min(6, (Number.isFinite(measured) ? measured : 3) * SIGMA_GAIN));
  return { ...zone, plane: richardsonLucy(g, sigma, ITERATIONS), lineHeight: zone.lineHeight * (g.width / plane.width) };
}
