/**
 * The blink challenge (issue 20, point 5): within its window the eyes must close and open again.
 * Eye openness is measured two ways, and a closure then a reopening seen by either counts:
 * - the eye aspect ratio (EAR) of the face mesh's eye contour: the eyelids' gap over the eye's
 *   width. The mesh model often keeps drawing an open eye over a closed lid (it fell to only
 *   87-95 % of the open EAR on some generated faces), so alone it misses blinks;
 * - the eyes' appearance: brightness sampled on a grid fixed to the eye corners, correlated with
 *   the straight look's. A closed lid hides iris and sclera, so the patch stops resembling the
 *   open eye, then resembles it again when the eye reopens, wherever the mesh puts the lids.
 * A print, a photo and a still picture on a screen never blink.
 * Both are judged against the open eyes of the same moment: the straight look's frames and the
 * blink window's own frames before the closure (see {@link blinkScan}).
 */
import type { Raster } from '../raster.js';
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

/**
 * Eye-patch correlation with the open eyes at or below which a frame's lids count as closed, and
 * at or above which they count as open again (see {@link lidsMoved}). On development faces 1, 2
 * and 3 (whose drawn blinks the EAR missed): open frames 0.91-0.99 (camera noise alone), lids
 * drawn closed −0.07-0.84. A false closure on an attack costs little: the blink only sends to
 * review, and prints and replays are rejected by the planarity and the flash.
 */
export const LIDS_CLOSED_CORRELATION = 0.85;
export const LIDS_OPEN_CORRELATION = 0.93;

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
 * Scans the blink window's frames (capture order; null: no face, skipped) for a closure and a
 * reopening after it. Each frame is judged against the open eyes of the same moment: the straight
 * look's frames (`open`) and the window's frames before the closure (without a straight look,
 * the window's first frame starts them). The straight look alone is
 * one frame since the widget sends its held frame only (`live-v13`), taken seconds before the
 * blink under another camera frame's noise and blur: development face 0's second take had its
 * eyes' patches reopen at 0.92 against it and at 0.996 against the window's first open frame, and
 * its one straight EAR was under the window's open ones (0.233 against 0.27-0.30), so both signals
 * missed a plain blink. A frame that closes must differ from every earlier frame, so a still
 * (a print, a photo) whose frames differ by camera noise never closes; a reopening must match the
 * eyes as they were before the closure.
 */
export function blinkScan<T>(
  open: readonly T[],
  window: readonly (T | null)[],
  isClosed: (frame: T, refs: readonly T[]) => boolean,
  isOpen: (frame: T, refs: readonly T[]) => boolean,
): boolean {
  const refs = [...open];
  let closed = false;
  for (const frame of window) {
    if (frame === null) continue;
    if (closed) {
      if (isOpen(frame, refs)) return true;
    } else if (refs.length > 0 && isClosed(frame, refs)) closed = true;
    else refs.push(frame);
  }
  return false;
}

/** The median of `values` (the upper one of an even count); 0 when empty. */
function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted.length ? sorted[Math.floor(sorted.length / 2)]! : 0;
}

/**
 * Whether the EARs of the blink window's frames show a closure and a reopening after it. The open
 * baseline is the median EAR of the straight look's frames and the window's frames before the
 * closure (a median, so one squinting frame does not move it).
 */
export function blinkSeen(open: readonly number[], ears: readonly (number | null)[]): boolean {
  return blinkScan(
    open.filter((e) => e > 0),
    ears.map((e) => (e !== null && e > 0 ? e : null)),
    (ear, refs) => ear <= median(refs) * BLINK_CLOSED_SHARE,
    (ear, refs) => ear >= median(refs) * BLINK_OPEN_SHARE,
  );
}

/** Samples along and across each eye in {@link eyePatch}. */
const PATCH_ALONG = 16;
const PATCH_ACROSS = 8;

/**
 * Both eyes' brightness sampled on a grid fixed to each eye (its corners' distance long, 0.5 of
 * it high, centred between the corners), so the same sample is the same place of the eye in every
 * frame wherever the head is. Sampled bilinearly: the grid is finer than the pixels on a small
 * face (16 samples along an eye 13 px wide), where rounding to the nearest pixel made open eyes
 * differ by whole pixels from frame to frame (development face 0: its eyes open again after the
 * blink correlated 0.90-0.91 with the straight look's rounded, under the 0.93 of an open eye,
 * and 0.94-0.96 bilinear; its blink went unseen). Null without a mesh or with
 * an eye under 6 pixels wide.
 */
export function eyePatch(raster: Raster, mesh: readonly Point2[] | undefined): Float32Array | null {
  if (!mesh || mesh.length < 468) return null;
  const out = new Float32Array(EYES.length * PATCH_ALONG * PATCH_ACROSS);
  let k = 0;
  for (const eye of EYES) {
    const a = mesh[eye.corners[0]]!;
    const b = mesh[eye.corners[1]]!;
    const width = dist(a, b);
    if (width < 6) return null;
    const ux = (b[0] - a[0]) / width;
    const uy = (b[1] - a[1]) / width;
    for (let j = 0; j < PATCH_ACROSS; j++) {
      for (let i = 0; i < PATCH_ALONG; i++) {
        const u = ((i + 0.5) / PATCH_ALONG - 0.5) * width;
        const v = ((j + 0.5) / PATCH_ACROSS - 0.5) * width * 0.5;
        out[k++] = bilinearLuma(raster, (a[0] + b[0]) / 2 + u * ux - v * uy, (a[1] + b[1]) / 2 + u * uy + v * ux);
      }
    }
  }
  return out;
}

/** Luma at (x, y), interpolated between the four nearest pixels; clamped to the raster. */
function bilinearLuma(raster: Raster, x: number, y: number): number {
  const cx = Math.min(raster.width - 1, Math.max(0, x));
  const cy = Math.min(raster.height - 1, Math.max(0, y));
  const x0 = Math.floor(cx);
  const y0 = Math.floor(cy);
  const x1 = Math.min(raster.width - 1, x0 + 1);
  const y1 = Math.min(raster.height - 1, y0 + 1);
  const fx = cx - x0;
  const fy = cy - y0;
  const top = (1 - fx) * lumaAt(raster, x0, y0) + fx * lumaAt(raster, x1, y0);
  const bottom = (1 - fx) * lumaAt(raster, x0, y1) + fx * lumaAt(raster, x1, y1);
  return (1 - fy) * top + fy * bottom;
}

function lumaAt(raster: Raster, x: number, y: number): number {
  const o = (y * raster.width + x) * raster.channels;
  return raster.channels === 3 ? 0.299 * raster.data[o]! + 0.587 * raster.data[o + 1]! + 0.114 * raster.data[o + 2]! : raster.data[o]!;
}

/** Pearson correlation of two eye patches (brightness and contrast drop out); 0 when one is flat. */
export function patchCorrelation(p: Float32Array, q: Float32Array): number {
  const n = Math.min(p.length, q.length);
  let mp = 0;
  let mq = 0;
  for (let i = 0; i < n; i++) {
    mp += p[i]!;
    mq += q[i]!;
  }
  mp /= n;
  mq /= n;
  let spq = 0;
  let spp = 0;
  let sqq = 0;
  for (let i = 0; i < n; i++) {
    spq += (p[i]! - mp) * (q[i]! - mq);
    spp += (p[i]! - mp) ** 2;
    sqq += (q[i]! - mq) ** 2;
  }
  return spp > 0 && sqq > 0 ? spq / Math.sqrt(spp * sqq) : 0;
}

/**
 * Whether the eyes' appearance left the open eyes' and came back: a blink frame whose eye patch
 * correlates with every open patch (the straight look's and the window's before it) at most
 * {@link LIDS_CLOSED_CORRELATION}, then a later one correlating with some open patch at
 * {@link LIDS_OPEN_CORRELATION} or more. Frames without a patch (null) are skipped. A print or a still photo changes only
 * by camera noise.
 */
export function lidsMoved(open: readonly Float32Array[], window: readonly (Float32Array | null)[]): boolean {
  const best = (patch: Float32Array, refs: readonly Float32Array[]): number => Math.max(...refs.map((o) => patchCorrelation(patch, o)));
  return blinkScan(
    open,
    window,
    (patch, refs) => best(patch, refs) <= LIDS_CLOSED_CORRELATION,
    (patch, refs) => best(patch, refs) >= LIDS_OPEN_CORRELATION,
  );
}
