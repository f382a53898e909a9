/**
 * The selfie's descriptor for matching against a document portrait (issue 20, point 4).
 *
 * A document portrait reaches the descriptor model as a face of 80-180 px, printed, photographed
 * and smoothed (portrait.ts), while a selfie's face is several hundred pixels wide and sharp. The
 * descriptor model (`faceres`) places the two apart even for one person: on the hard set, sharp
 * selfies matched their portraits worse than blurred or low-resolution ones (held-out: 36 % of
 * plain selfies accepted, 53 % of blurred ones; docs/analysis.md). So the selfie's face is brought
 * to a portrait's scale before it is described: cropped with the portrait's margin, scaled so the
 * face is {@link MATCH_FACE_SIDE} px, smoothed with the portrait's σ, and resized to the portrait
 * crop's side, then detected and described again. Only the match with a portrait uses it:
 * liveness frames are compared with the selfie's own descriptor (both at a camera's scale).
 *
 * A portrait's softness varies with the capture (defocus, motion, the upload's size), so the
 * selfie at that scale is described at three smoothings ({@link SMOOTHS}) and the three unit
 * descriptors averaged: one σ fits a sharp capture of the card, another a soft one, and the mean
 * sits between them rather than betting on one (docs/analysis.md, 2026-11-28 08:10 UTC).
 */
import { rasterFrom, sharpFromRaster, type Raster } from '../raster.js';
import type { FaceModels } from '../engines.js';
import { detectFaces, type DetectedFace } from './face.js';
import { faceRegion, meanDescriptor } from './portrait.js';

/**
 * Longer side of the face box, in pixels, the selfie is scaled to: the small end of the portraits
 * found on the development half (84-151 px). Chosen there between 96 and 128 px (first draw of each
 * selfie kind, 326 genuine / 3,241 impostor pairs): TAR at FAR ≤ 0.1 % 83.7 % at 96 px, 81.6 % at
 * 128 px, 78.8 % with the selfie's own descriptor (docs/analysis.md).
 */
export const MATCH_FACE_SIDE = 96;
/** Margin around the face box, as a share of its longer side (the portrait crop's). */
const MARGIN = 0.6;
/**
 * Gaussian σ values at that scale, one descriptor each, averaged: the portrait crop's own 0.8 and
 * two softer ones. Chosen on the development half and its variant (harder captures of the same
 * seeds), three draws of each selfie kind, 978 genuine / 9,723 impostor pairs each: genuine pairs
 * rejected on dev-variant 8.5 → 2.9 % (dev 2.7 → 2.9 %), accepted at 0.69 on dev 83.9 → 85.8 %,
 * dev-variant 72.7 → 77.5 %; TAR at FAR ≤ 0.1 % dev 84.9 → 86.2 %, dev-variant 65.3 → 66.2 %
 * (inside the intervals); impostors accepted at 0.69 on dev 2 → 7 of 9,723. One σ alone (1.2,
 * 1.6) lost 0.6 points on dev; 2.2 lost 18. Held-out, once: TAR 73.7 → 77.8 %, rejected 14.4 → 9.6 %,
 * but impostor pairs in review 1.96 → 6.14 % (the review edges were set with σ 0.8 alone).
 */
export const SMOOTHS: readonly number[] = [0.8, 1.2, 1.6];
/** Only the descriptor is kept from these crops. */
const DESCRIPTOR_MODELS: FaceModels = { description: true, emotion: false, antispoof: false, liveness: false };
/** Width of the crop the descriptor is taken from (the portrait crop's). */
const CROP_SIDE = 320;

/**
 * The descriptor of `face` (found in `raster`) taken again at a portrait's scale, as described
 * above: the mean over the `smooths` whose crop shows a face; null when none does (the caller
 * keeps the face's own).
 */
export async function portraitScaleDescriptor(
  raster: Raster,
  face: DetectedFace,
  side = MATCH_FACE_SIDE,
  smooths: readonly number[] = SMOOTHS,
): Promise<number[] | null> {
  const region = faceRegion(raster, face, MARGIN);
  if (!region) return null;
  const { left, top, width, height } = region;
  const k = side / Math.max(face.box[2], face.box[3]);
  // Two steps: sharp applies a blur after its resize, and the smoothing belongs at the small scale.
  const small = await rasterFrom(
    sharpFromRaster(raster)
      .extract({ left, top, width, height })
      .resize({ width: Math.max(8, Math.round(width * k)), kernel: 'lanczos3' }),
  );
  const found: (readonly number[])[] = [];
  for (const sigma of smooths) {
    const smoothed = await rasterFrom(sharpFromRaster(small).blur(sigma));
    const crop = await rasterFrom(sharpFromRaster(smoothed).resize({ width: CROP_SIDE, kernel: 'lanczos3' }));
    const cx = crop.width / 2;
    const cy = crop.height / 2;
    const off = (f: DetectedFace): number => Math.hypot(f.box[0] + f.box[2] / 2 - cx, f.box[1] + f.box[3] / 2 - cy);
    const again = (await detectFaces(crop, DESCRIPTOR_MODELS)).sort((a, b) => off(a) - off(b))[0];
    if (again?.embedding) found.push(again.embedding);
  }
  return found.length > 0 ? meanDescriptor(found) : null;
}

/**
 * The descriptor a live face (selfie, video frame) is matched against a document portrait with,
 * for every method (`matchPortrait` in selfie.ts): at a portrait's scale, or the face's own when
 * the detector finds no face in that crop; null when the face has no descriptor.
 */
export async function matchDescriptor(raster: Raster, face: DetectedFace): Promise<number[] | null> {
  if (!face.embedding) return null;
  return (await portraitScaleDescriptor(raster, face)) ?? [...face.embedding];
}
