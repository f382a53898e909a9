/**
 * A face the detector lost in a run of dense liveness frames, searched for again where it was.
 * The frames of a step are about 100 ms apart, so a face found in one frame is still near the
 * same place in the next; a detector run on the whole frame can miss a face it finds when the
 * region around the last face's box fills its input (a face turned towards profile, tinted by
 * the flash, or small in the frame). The face found again goes through every check the others do.
 */
import { rasterFrom, sharpFromRaster, type Raster } from '../raster.js';
import { detectFaces, type DetectedFace } from './face.js';

/**
 * How far each search region reaches past the last face's box on each side, in the box's longer
 * side, tried in this order until one holds the face. The detector near its confidence floor finds
 * the face at one framing and not at the next (development face 4's flash frames: each margin alone
 * found 3-4 of the 7 lost faces, the three together 5); a tighter region is tried first.
 */
export const SEARCH_MARGINS = [0.25, 0.5, 1] as const;
/** A face found again must be between 1/SIZE_RATIO_MAX and SIZE_RATIO_MAX times the last box's area: the same face, not an echo. */
export const SIZE_RATIO_MAX = 2;

/** The pixel rectangle searched again around `box` ([x, y, w, h]) with `margin`, clamped to the raster; null when too small. */
export function searchRegion(
  width: number,
  height: number,
  box: DetectedFace['box'],
  margin: number,
): { left: number; top: number; width: number; height: number } | null {
  const [x, y, w, h] = box;
  const m = Math.max(w, h) * margin;
  const left = Math.max(0, Math.floor(x - m));
  const top = Math.max(0, Math.floor(y - m));
  const right = Math.min(width, Math.ceil(x + w + m));
  const bottom = Math.min(height, Math.ceil(y + h + m));
  return right - left < 16 || bottom - top < 16 ? null : { left, top, width: right - left, height: bottom - top };
}

/** `face`, found in a crop whose top-left corner is at (dx, dy), in the whole frame's pixels. */
export function shiftFace(face: DetectedFace, dx: number, dy: number): DetectedFace {
  const [x, y, w, h] = face.box;
  return {
    ...face,
    box: [x + dx, y + dy, w, h],
    ...(face.mesh ? { mesh: face.mesh.map((p) => [p[0] + dx, p[1] + dy] as const) } : {}),
  };
}

/** Whether `found` (in frame pixels) can be the face of `last`: its centre inside the last box, its area comparable. */
export function sameFacePlace(found: DetectedFace['box'], last: DetectedFace['box']): boolean {
  const [fx, fy, fw, fh] = found;
  const [lx, ly, lw, lh] = last;
  const cx = fx + fw / 2;
  const cy = fy + fh / 2;
  const ratio = (fw * fh) / Math.max(1, lw * lh);
  return cx >= lx && cx <= lx + lw && cy >= ly && cy <= ly + lh && ratio >= 1 / SIZE_RATIO_MAX && ratio <= SIZE_RATIO_MAX;
}

/**
 * The faces found again in `raster` around `last` (the box of the last face found in the run),
 * in frame pixels, largest first; empty when none there is the same face's size and place.
 */
export async function refindFace(raster: Raster, last: DetectedFace['box']): Promise<DetectedFace[]> {
  for (const margin of SEARCH_MARGINS) {
    const region = searchRegion(raster.width, raster.height, last, margin);
    if (!region) continue;
    const crop = await rasterFrom(sharpFromRaster(raster).extract(region));
    const found = (await detectFaces(crop)).map((f) => shiftFace(f, region.left, region.top)).filter((f) => sameFacePlace(f.box, last));
    if (found.length > 0) return found;
  }
  return [];
}
