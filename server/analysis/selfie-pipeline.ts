/**
 * The selfie and liveness method's pipeline: the selfie's face and each frame's, matched with
 * the reference portrait, the challenges and anti-spoofing signals, then the decision
 * (selfie.ts). The document pipeline is pipeline.ts, the Video method's frames frames.ts.
 */
import { AnalysisInputError } from './errors.js';
import { facesOfImage } from './frames.js';
import { prepareInput, type PreparedInput } from './input.js';
import { ChallengeSignals } from './stages/challenge-signals.js';
import { detectFaces, type DetectedFace } from './stages/face.js';
import { refindFace } from './stages/lost-face.js';
import { documentFaces } from './stages/portrait.js';
import { detectRecapture } from './stages/recapture.js';
import { matchDescriptor } from './stages/selfie-descriptor.js';
import { decideSelfie, type LivenessFrame } from './stages/selfie.js';
import { timed } from './timed.js';
import type { AnalyseSelfieInput, AnalyseSelfieOptions, SelfieResult } from './types.js';

/**
 * The selfie (and liveness) method: detects the face in the selfie and each frame, compares
 * with the reference portrait, checks the challenges and the anti-spoofing scores, and decides
 * complete / review / rejected with reasons.
 */
export async function analyseSelfie(input: AnalyseSelfieInput, options: AnalyseSelfieOptions = {}): Promise<SelfieResult> {
  const timings: Record<string, number> = {};
  let selfieInput: PreparedInput;
  try {
    selfieInput = await timed(timings, 'input', () => prepareInput(input.selfie));
  } catch (err: unknown) {
    if (err instanceof AnalysisInputError) return { decision: 'rejected', reasons: ['NO_FACE'], challenges: [], derivative: null, embedding: null, timings };
    throw err;
  }
  const selfie = await timed(timings, 'selfie_faces', () => detectFaces(selfieInput.raster));
  let reference: DetectedFace | undefined;
  if (options.referenceEmbedding) {
    reference = {
      box: [0, 0, 0, 0],
      score: 1,
      emotions: {},
      turn: 0,
      embedding: options.referenceEmbedding,
      ...(options.referenceQuality ? { portrait: options.referenceQuality } : {}),
    };
  } else if (options.referenceDocument) {
    const doc = await prepareInput(options.referenceDocument);
    reference = (await timed(timings, 'reference_faces', () => documentFaces(doc.raster)))[0];
  }
  // A face filmed off a screen carries the screen's moiré (issue 20): checked on the selfie and
  // on the held frame of each move (the last of its step), not on every dense frame.
  let screenReplay = (await timed(timings, 'moire', () => detectRecapture(selfieInput.raster))).screen;
  const frames: LivenessFrame[] = [];
  const signals = new ChallengeSignals();
  const all = input.frames ?? [];
  // The box of the last face found, for a frame where the detector loses it (lost-face.ts).
  let lastBox: DetectedFace['box'] | undefined;
  for (const [i, frame] of all.entries()) {
    const { prepared, faces: whole } = await timed(timings, `frame_${i}`, () => facesOfImage(frame.bytes));
    const faces = whole.length > 0 || !lastBox ? whole : await timed(timings, `refind_${i}`, () => refindFace(prepared.raster, lastBox!));
    if (faces[0]) lastBox = faces[0].box;
    signals.add(frame.challenge, prepared.raster, faces);
    frames.push({ challenge: frame.challenge, faces, ...(frame.step !== undefined ? { step: frame.step } : {}) });
    const held = all[i + 1]?.step !== frame.step || frame.step === undefined;
    if (!screenReplay && held) screenReplay = (await detectRecapture(prepared.raster)).screen;
  }
  // Only the match with the portrait uses the portrait-scale descriptor; frames are compared
  // with the selfie's own (same scale on both sides).
  const atScale = reference && selfie[0] ? await timed(timings, 'selfie_match', () => matchDescriptor(selfieInput.raster, selfie[0]!)) : null;
  const decision = await decideSelfie({
    selfie,
    ...(reference ? { reference } : {}),
    ...(atScale ? { selfieAtPortraitScale: atScale } : {}),
    frames,
    ...(options.requireReference !== undefined ? { requireReference: options.requireReference } : {}),
    ...(options.activeLiveness !== undefined ? { activeLiveness: options.activeLiveness } : {}),
    screenReplay,
    ...(options.flashColours ? { flash: signals.flash(options.flashColours) } : {}),
    ...(options.requireBlink ? { blink: signals.blink() } : {}),
  });
  return { ...decision, derivative: selfieInput.derivative, embedding: selfie[0]?.embedding ? [...selfie[0].embedding] : null, timings };
}
