/**
 * Face part of the evaluation: document portraits (as the pipeline found them on the half's
 * genuine captures) against degraded selfies of the half's faces, scored with whatever
 * similarity `server/analysis/stages/face.ts` exports; and liveness sessions (bona fide and
 * simulated attacks) through `analyseSelfie`, whatever liveness checks it makes.
 */
import sharp from 'sharp';
import { analyseSelfie } from '../../server/analysis/index.js';
import { prepareInput } from '../../server/analysis/input.js';
import { fitRaster, rasterFrom } from '../../server/analysis/raster.js';
import { detectFaces, faceSimilarity, type DetectedFace } from '../../server/analysis/stages/face.js';
import type { LivenessChallenge, SelfieDecision } from '../../server/analysis/stages/selfie.js';
import type { HalfConfig } from '../../test/fixtures/hard/config.js';
import { SELFIE_KINDS } from '../../test/fixtures/hard/selfies.js';
import { hardSelfie, padSession, type PadKind } from '../../test/fixtures/hard/set.js';

/** Selfies per face and degradation (three draws each: 264 selfies per half). */
const SEEDS_PER_KIND = 3;

async function centralFace(b: Buffer): Promise<DetectedFace | undefined> {
  const r = await rasterFrom(sharp(b));
  const d = (f: DetectedFace): number => Math.hypot(f.box[0] + f.box[2] / 2 - r.width / 2, f.box[1] + f.box[3] / 2 - r.height / 2);
  return (await detectFaces(r)).sort((a, c) => d(a) - d(c))[0];
}

/**
 * The document portrait's descriptor: the pipeline's when it got that far; when it refused the
 * capture first (a quality code), the face stage run on the capture the same way, so a refused
 * capture still gives the face evaluation its portrait.
 */
export async function portraitOf(bytes: Buffer, fromPipeline: readonly number[] | null): Promise<readonly number[] | null> {
  if (fromPipeline) return fromPipeline;
  const raster = await fitRaster((await prepareInput(bytes)).raster, 2000);
  return (await detectFaces(raster))[0]?.embedding ?? null;
}

export interface FaceScores {
  readonly genuine: number[];
  readonly impostor: number[];
  /** Impostor scores by selfie degradation. */
  readonly impostorByKind: Record<string, number[]>;
  readonly genuineByKind: Record<string, number[]>;
  readonly selfies: number;
  readonly selfiesWithoutFace: number;
  readonly portraits: number;
  readonly faces: number;
}

/** Scores every portrait against every selfie of the half. */
export async function evalFaceMatch(half: HalfConfig, portraits: readonly { face: number; embedding: readonly number[] }[]): Promise<FaceScores> {
  const selfies: { face: number; kind: string; e: readonly number[] }[] = [];
  let missing = 0;
  for (const face of half.faces) {
    for (const kind of SELFIE_KINDS) {
      for (let n = 0; n < SEEDS_PER_KIND; n++) {
        const f = await centralFace(await hardSelfie(half, face, kind, n));
        if (f?.embedding) selfies.push({ face, kind, e: f.embedding });
        else missing++;
      }
    }
  }
  const s: FaceScores = {
    genuine: [],
    impostor: [],
    impostorByKind: {},
    genuineByKind: {},
    selfies: selfies.length,
    selfiesWithoutFace: missing,
    portraits: portraits.length,
    faces: half.faces.length,
  };
  for (const p of portraits) {
    for (const sf of selfies) {
      const score = await faceSimilarity(p.embedding, sf.e);
      const same = p.face === sf.face;
      (same ? s.genuine : s.impostor).push(score);
      const by = same ? s.genuineByKind : s.impostorByKind;
      (by[sf.kind] ??= []).push(score);
    }
  }
  return s;
}

export interface PadOutcome {
  readonly kind: PadKind;
  readonly face: number;
  readonly decision: SelfieDecision;
  readonly reasons: readonly string[];
}

export const PAD_KINDS: readonly PadKind[] = ['bona-fide', 'print', 'print-closer', 'screen', 'photo-sequence'];

/** Every face's bona fide session and each attack, decided by `analyseSelfie`. */
export async function evalLiveness(half: HalfConfig): Promise<PadOutcome[]> {
  const out: PadOutcome[] = [];
  for (const face of half.faces) {
    for (const kind of PAD_KINDS) {
      const s = await padSession(half, face, kind);
      const frames: { bytes: Buffer; challenge: LivenessChallenge }[] = [];
      let neutralTurn = 0;
      for (const f of s.frames) {
        let challenge: LivenessChallenge;
        if (f.challenge === 'turn') {
          // The attacker shows the mirrored still for the turn that mirroring produces.
          challenge = neutralTurn <= 0 ? 'turn_left' : 'turn_right';
        } else {
          challenge = f.challenge;
          if (f.challenge === 'neutral') neutralTurn = (await detectFaces((await prepareInput(f.bytes)).raster))[0]?.turn ?? 0;
        }
        frames.push({ bytes: f.bytes, challenge });
      }
      const r = await analyseSelfie({ selfie: s.selfie, frames });
      out.push({ kind, face, decision: r.decision, reasons: r.reasons });
    }
  }
  return out;
}
