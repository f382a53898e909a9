/**
 * The faces of video frames (the Video method) and of one captured frame (the selfie method's
 * frames): decoded as uploads are, faces found by the face stage.
 */
import { AnalysisInputError } from './errors.js';
import { prepareInput, type PreparedInput } from './input.js';
import { detectFaces, type DetectedFace } from './stages/face.js';
import { detectRecapture } from './stages/recapture.js';
import { matchDescriptor } from './stages/selfie-descriptor.js';
import { timed } from './timed.js';
import type { AnalyseFramesInput, FramesResult } from './types.js';

/** The faces of one captured frame (largest first), with the decoded frame. */
export async function facesOfImage(bytes: Buffer): Promise<{ prepared: PreparedInput; faces: DetectedFace[] }> {
  const prepared = await prepareInput(bytes);
  return { prepared, faces: await detectFaces(prepared.raster) };
}

/**
 * The faces in frames sampled from a video (the Video method decides from them, with the
 * selfie's rules), and whether the first frame, the straight look, was filmed off a screen.
 * A frame that cannot be decoded has no face.
 */
export async function analyseFrames(input: AnalyseFramesInput): Promise<FramesResult> {
  const timings: Record<string, number> = {};
  const frames: DetectedFace[][] = [];
  let screenReplay = false;
  let neutralMatch: number[] | null = null;
  for (const [i, bytes] of input.frames.entries()) {
    try {
      const { prepared, faces } = await timed(timings, `frame_${i}`, () => facesOfImage(bytes));
      if (i === 0) screenReplay = (await timed(timings, 'moire', () => detectRecapture(prepared.raster))).screen;
      // The first frame with a face is the video's straight look, the one matched with the portrait.
      if (faces[0] && !frames.some((f) => f.length > 0)) {
        neutralMatch = await timed(timings, 'neutral_match', () => matchDescriptor(prepared.raster, faces[0]!));
      }
      frames.push(faces);
    } catch (err: unknown) {
      if (!(err instanceof AnalysisInputError)) throw err;
      frames.push([]);
    }
  }
  return { frames, screenReplay, ...(neutralMatch ? { neutralMatch } : {}), timings };
}
