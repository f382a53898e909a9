/**
 * Liveness checks over the dense frames of one move (issue 20, point 5), as pure functions of
 * the detected faces:
 * - planarity: a turned head is not a plane. The best homography from the straight face's mesh
 *   to the turned face's mesh leaves a large residual on a real head, almost none on a print or
 *   a screen however it is turned or moved (see planarity.ts);
 * - continuity: a head turns through the poses in between. The widget sends the frames of the
 *   last second or so before each move was held; a photo swapped for another photo of the victim
 *   turned jumps from straight to turned with nothing in between.
 */
import type { DetectedFace } from './face.js';
import { trimmedResidual, type Point2 } from './planarity.js';

/**
 * Trimmed homography residual (inter-ocular distances) below which a turn is planar: a print or
 * a screen. Set on simulated prints of four demo faces turned ±20-35° and moved closer (residual
 * 0.007-0.039) against the same faces turned the other way (0.050-0.114); docs/analysis.md.
 */
export const PLANAR_RESIDUAL_MAX = 0.045;
/** A frame in between counts when its turn is this share of the move's turn or more, and at most 1 minus it. */
export const INTERMEDIATE_SHARE = 0.2;

/** Mesh indices of the outer eye corners (MediaPipe face mesh topology). */
const OUTER_EYE = [33, 263] as const;

/** Distance between the outer eye corners of a mesh, in its pixels. */
function interOcular(mesh: readonly Point2[]): number {
  const a = mesh[OUTER_EYE[0]];
  const b = mesh[OUTER_EYE[1]];
  return a && b ? Math.hypot(b[0] - a[0], b[1] - a[1]) : 0;
}

/**
 * How far the move from `straight` to `turned` is from a plane's: the trimmed homography
 * residual of the two meshes, or null when either face has no mesh.
 */
export function planarityResidual(straight: DetectedFace, turned: DetectedFace): number | null {
  if (!straight.mesh || !turned.mesh || straight.mesh.length !== turned.mesh.length) return null;
  return trimmedResidual(straight.mesh, turned.mesh, interOcular(turned.mesh));
}

/**
 * The landmark noise of a session's still frames, in the planarity residual's own unit: the
 * median residual from the straight face to each face of `stills` (the flash frames: the person
 * holds still while the screen changes colour). A plane turned leaves about this much; the same
 * camera noise on a print's halftone or a blurred face raises the residual of every pair alike.
 * Null with fewer than three still faces with a mesh.
 */
export function stillNoise(straight: DetectedFace, stills: readonly DetectedFace[]): number | null {
  const r = stills.flatMap((f) => planarityResidual(straight, f) ?? []).filter(Number.isFinite);
  if (r.length < 3) return null;
  r.sort((a, b) => a - b);
  const m = r.length >> 1;
  return r.length % 2 ? r[m]! : (r[m - 1]! + r[m]!) / 2;
}

/**
 * Whether the frames of a turn show the head on its way: at least one frame whose turn (against
 * the straight face) lies strictly between {@link INTERMEDIATE_SHARE} and 1 minus it of the
 * final turn. `frames` are the move's faces in capture order, the last one the held pose.
 */
export function turnIsContinuous(straight: DetectedFace, frames: readonly DetectedFace[]): boolean {
  const last = frames.at(-1);
  if (!last) return false;
  const total = last.turn - straight.turn;
  if (total === 0) return false;
  return frames.slice(0, -1).some((f) => {
    const share = (f.turn - straight.turn) / total;
    return share > INTERMEDIATE_SHARE && share < 1 - INTERMEDIATE_SHARE;
  });
}
