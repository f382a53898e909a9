/**
 * The blink challenge (issue 20, point 5): within its window the eyes must close and open again.
 * Eye openness is the eye aspect ratio (EAR) of the face mesh's eye contour: the eyelids' gap over
 * the eye's width. A print, a photo and a still picture on a screen never blink.
 */
import type { Point2 } from './planarity.js';

/**
 * A frame's eyes count as closed when their EAR falls to this share of the open baseline (the
 * straight look's). The face mesh does not follow eyelids fully: on generated faces with eyelids
 * drawn closed, the EAR fell to 45-95 % of the open one (docs/analysis.md); tuned on the
 * development half.
 */
export const BLINK_CLOSED_SHARE = 0.8;
/** Eyes count as open again at this share of the baseline or more. */
export const BLINK_OPEN_SHARE = 0.9;

/** Mesh indices of each eye: outer and inner corner, then two upper and their two lower lid points. */
const EYES = [
  { corners: [33, 133], upper: [160, 158], lower: [144, 153] },
  { corners: [263, 362], upper: [387, 385], lower: [373, 380] },
] as const;

const dist = (a: Point2, b: Point2): number => Math.hypot(a[0] - b[0], a[1] - b[1]);

/** The mean eye aspect ratio of both eyes, or null without a full mesh. */
export function eyeAspectRatio(mesh: readonly Point2[] | undefined): number | null {
  if (!mesh || mesh.length < 468) return null;
  let sum = 0;
  for (const eye of EYES) {
    const width = dist(mesh[eye.corners[0]]!, mesh[eye.corners[1]]!);
    if (width <= 0) return null;
    sum += (dist(mesh[eye.upper[0]]!, mesh[eye.lower[0]]!) + dist(mesh[eye.upper[1]]!, mesh[eye.lower[1]]!)) / (2 * width);
  }
  return sum / EYES.length;
}

/**
 * Whether the EARs of the blink window's frames, in capture order, show a closure and a reopening
 * after it, against the open baseline. Frames without a face (null) are skipped.
 */
export function blinkSeen(baseline: number, ears: readonly (number | null)[]): boolean {
  if (!(baseline > 0)) return false;
  let closed = false;
  for (const ear of ears) {
    if (ear === null) continue;
    if (!closed && ear <= baseline * BLINK_CLOSED_SHARE) closed = true;
    else if (closed && ear >= baseline * BLINK_OPEN_SHARE) return true;
  }
  return false;
}
