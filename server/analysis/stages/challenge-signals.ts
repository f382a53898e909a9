/**
 * Gathers, frame by frame, what the flash and blink checks need from the liveness frames: the
 * face's chroma shift in each `flash` frame, the eye openness in the straight look (the open
 * baseline) and in each `blink` frame. The decision is in selfie.ts.
 */
import type { Raster } from '../raster.js';
import { blinkSeen, eyeAspectRatio, eyePatch, lidsMoved } from './blink.js';
import type { DetectedFace } from './face.js';
import { faceChromaShift, flashCorrelation, parseHex, type Rgb } from './flash.js';
import type { LivenessChallenge } from './selfie.js';

export class ChallengeSignals {
  private readonly shifts: (Rgb | null)[] = [];
  private readonly openEars: number[] = [];
  private readonly blinkEars: (number | null)[] = [];
  private readonly openPatches: Float32Array[] = [];
  private readonly blinkPatches: (Float32Array | null)[] = [];

  /** Records one frame of `challenge` with the faces found in it (largest first). */
  add(challenge: LivenessChallenge, raster: Raster, faces: readonly DetectedFace[]): void {
    const face = faces[0];
    if (challenge === 'flash') this.shifts.push(face ? faceChromaShift(raster, face.box) : null);
    if (challenge === 'neutral') {
      const ear = eyeAspectRatio(face?.mesh);
      if (ear !== null) this.openEars.push(ear);
      const patch = eyePatch(raster, face?.mesh);
      if (patch) this.openPatches.push(patch);
    }
    if (challenge === 'blink') {
      this.blinkEars.push(eyeAspectRatio(face?.mesh));
      this.blinkPatches.push(eyePatch(raster, face?.mesh));
    }
  }

  /** The correlation of the flash frames with `colours` (`#rrggbb`, in the order shown). */
  flash(colours: readonly string[]): { correlation: number | null } {
    const rgb = colours.map(parseHex);
    if (rgb.some((c) => c === null)) return { correlation: null };
    return { correlation: flashCorrelation(this.shifts, rgb as Rgb[]) };
  }

  /**
   * Whether the blink frames show a blink, judged against the open eyes of the straight look and
   * of the window before the closure (blink.ts `blinkScan`). Either the mesh's eye aspect ratio or
   * the eyes' appearance may show it (the mesh often keeps an open contour over a closed lid).
   */
  blink(): { seen: boolean } {
    return { seen: blinkSeen(this.openEars, this.blinkEars) || lidsMoved(this.openPatches, this.blinkPatches) };
  }
}
