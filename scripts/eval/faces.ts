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
import { detectFaces, type DetectedFace } from '../../server/analysis/stages/face.js';
import { documentFaces, type PortraitQuality } from '../../server/analysis/stages/portrait.js';
import { matchDescriptor } from '../../server/analysis/stages/selfie-descriptor.js';
import {
  matchPortrait,
  type ChallengeOutcome,
  type FaceMatchBand,
  type LivenessChallenge,
  type PortraitMatch,
  type SelfieDecision,
} from '../../server/analysis/stages/selfie.js';
import type { HalfConfig } from '../../test/fixtures/hard/config.js';
import { SELFIE_KINDS } from '../../test/fixtures/hard/selfies.js';
import { denseSession, LIVE_KINDS, type LiveKind } from '../../test/fixtures/hard/liveness-sessions.js';
import { hardPeople, hardPhoto, hardSelfie } from '../../test/fixtures/hard/set.js';

/** Selfies per face and degradation (three draws each: 264 selfies per half). */
const SEEDS_PER_KIND = 3;

/**
 * The selfie's faces, the one nearest the centre first, and that face's descriptor as the
 * selfie is matched against a portrait (at a portrait's scale, as `analyseSelfie` does).
 */
async function selfieFaces(b: Buffer): Promise<{ faces: DetectedFace[]; match: readonly number[] | undefined }> {
  const r = await rasterFrom(sharp(b));
  const d = (f: DetectedFace): number => Math.hypot(f.box[0] + f.box[2] / 2 - r.width / 2, f.box[1] + f.box[3] / 2 - r.height / 2);
  const faces = (await detectFaces(r)).sort((a, c) => d(a) - d(c));
  const first = faces[0];
  return { faces, match: (first && (await matchDescriptor(r, first))) ?? undefined };
}

/** A second face at least a quarter the size of the first: what the selfie decision calls MULTIPLE_FACES. */
export function hasSecondFace(faces: readonly DetectedFace[]): boolean {
  const [a, ...rest] = faces;
  return a !== undefined && rest.some((f) => f.box[2] * f.box[3] > 0.25 * a.box[2] * a.box[3]);
}

/**
 * The document portrait's descriptor: the pipeline's when it got that far; when it refused the
 * capture first (a quality code), the face stage run on the capture the same way, so a refused
 * capture still gives the face evaluation its portrait.
 */
export async function portraitOf(bytes: Buffer, fromPipeline: PortraitReference | null): Promise<PortraitReference | null> {
  if (fromPipeline) return fromPipeline;
  const raster = await fitRaster((await prepareInput(bytes)).raster, 2000);
  const portrait = (await documentFaces(raster))[0];
  return portrait?.embedding ? { embedding: portrait.embedding, ...(portrait.portrait ? { quality: portrait.portrait } : {}) } : null;
}

/** A document portrait's descriptor and its quality, as stored for later matches. */
export interface PortraitReference {
  readonly embedding: readonly number[];
  readonly quality?: PortraitQuality;
}

/** A document portrait's descriptor, its quality and whose face it is. */
export interface Portrait extends PortraitReference {
  readonly face: number;
}

/**
 * The portraits of the first `people` identities' licence fronts and passports, found as the
 * pipeline finds them (its face stage on the same raster) without running the rest of the
 * pipeline: the fast path of `--part faces`. `tried` counts the documents looked at.
 */
export async function documentPortraits(half: HalfConfig, people: number, progress: (s: string) => void): Promise<{ portraits: Portrait[]; tried: number }> {
  const portraits: Portrait[] = [];
  let tried = 0;
  for (const [i, id] of hardPeople(half, people).entries()) {
    for (const kind of ['licence-front', 'passport'] as const) {
      tried++;
      const portrait = await portraitOf(await hardPhoto(half, i, kind), null);
      if (portrait) portraits.push({ face: id.face, ...portrait });
    }
    progress(`${half.name}: portraits of ${i + 1}/${people} people`);
  }
  return { portraits, tried };
}

export interface FaceScores {
  readonly genuine: number[];
  readonly impostor: number[];
  /** The band each genuine / impostor pair lands in (the portrait's own band, selfie.ts). */
  readonly genuineBands: FaceMatchBand[];
  readonly impostorBands: FaceMatchBand[];
  /** Index into `portraits` of each genuine / impostor pair's portrait. */
  readonly genuinePortrait: number[];
  readonly impostorPortrait: number[];
  /** Impostor scores by selfie degradation. */
  readonly impostorByKind: Record<string, number[]>;
  readonly genuineByKind: Record<string, number[]>;
  /** Bands by selfie degradation. */
  readonly genuineBandsByKind: Record<string, FaceMatchBand[]>;
  readonly impostorBandsByKind: Record<string, FaceMatchBand[]>;
  readonly selfies: number;
  readonly selfiesWithoutFace: number;
  /** Selfies in which a second face was found (a flaw of the set when not zero). */
  readonly selfiesWithSecondFace: number;
  readonly portraits: number;
  readonly faces: number;
}

/** A selfie's descriptor, whose face and which degradation. */
export interface SelfieSample {
  readonly face: number;
  readonly kind: string;
  readonly embedding: readonly number[];
}

/**
 * Every portrait against every selfie: a pair is genuine when both show the same demo face,
 * an impostor pair otherwise. Scores and bands are also kept by selfie degradation.
 */
export function scorePairs(
  portraits: readonly Portrait[],
  selfies: readonly SelfieSample[],
  match: (selfie: readonly number[], portrait: PortraitReference) => PortraitMatch,
): Omit<FaceScores, 'selfies' | 'selfiesWithoutFace' | 'selfiesWithSecondFace' | 'portraits' | 'faces'> {
  const s = {
    genuine: [] as number[],
    impostor: [] as number[],
    genuineBands: [] as FaceMatchBand[],
    impostorBands: [] as FaceMatchBand[],
    genuinePortrait: [] as number[],
    impostorPortrait: [] as number[],
    genuineByKind: {} as Record<string, number[]>,
    impostorByKind: {} as Record<string, number[]>,
    genuineBandsByKind: {} as Record<string, FaceMatchBand[]>,
    impostorBandsByKind: {} as Record<string, FaceMatchBand[]>,
  };
  for (const [pi, p] of portraits.entries()) {
    for (const sf of selfies) {
      const m = match(sf.embedding, p);
      const same = p.face === sf.face;
      (same ? s.genuine : s.impostor).push(m.similarity);
      (same ? s.genuineBands : s.impostorBands).push(m.band);
      (same ? s.genuinePortrait : s.impostorPortrait).push(pi);
      ((same ? s.genuineByKind : s.impostorByKind)[sf.kind] ??= []).push(m.similarity);
      ((same ? s.genuineBandsByKind : s.impostorBandsByKind)[sf.kind] ??= []).push(m.band);
    }
  }
  return s;
}

/** Scores every portrait against every selfie of the half. */
export async function evalFaceMatch(half: HalfConfig, portraits: readonly Portrait[]): Promise<FaceScores> {
  const selfies: SelfieSample[] = [];
  let missing = 0;
  let secondFace = 0;
  for (const face of half.faces) {
    for (const kind of SELFIE_KINDS) {
      for (let n = 0; n < SEEDS_PER_KIND; n++) {
        const { faces, match: embedding } = await selfieFaces(await hardSelfie(half, face, kind, n));
        if (hasSecondFace(faces)) secondFace++;
        if (embedding) selfies.push({ face, kind, embedding });
        else missing++;
      }
    }
  }
  return {
    ...scorePairs(portraits, selfies, (selfie, portrait) => matchPortrait(selfie, portrait.embedding, portrait.quality)),
    selfies: selfies.length,
    selfiesWithoutFace: missing,
    selfiesWithSecondFace: secondFace,
    portraits: portraits.length,
    faces: half.faces.length,
  };
}

export interface PadOutcome {
  readonly kind: LiveKind;
  readonly face: number;
  /** Which take of the face's session (0: the first). */
  readonly take: number;
  readonly decision: SelfieDecision;
  readonly reasons: readonly string[];
  /** Correlation of the face's chroma with the session's flash colours, when measurable. */
  readonly flash?: number;
  /** The turn as the server judged it: its measured change, planarity residual and continuity. */
  readonly turn?: { readonly measured: number; readonly planarity?: number; readonly noise?: number; readonly continuous?: boolean };
  /** Mean anti-spoof score over the selfie and frames. */
  readonly antispoof?: number;
}

/** The reason of a session whose step the widget's gate never ended (refused on the device, not by the server). */
export const DEVICE_TIMEOUT = 'TIMED_OUT_ON_DEVICE';

export const PAD_KINDS: readonly LiveKind[] = LIVE_KINDS;

/** The horizontal turn measure of the (first) face in a frame, undefined without one. */
async function turnOf(bytes: Buffer): Promise<number | undefined> {
  return (await detectFaces((await prepareInput(bytes)).raster))[0]?.turn;
}

/**
 * The turn to ask for: the direction the session's frames turn, from the straight look to the
 * last turn frame with a face (`turns` in capture order, undefined where no face was found). A
 * last frame without a face used to count as turn 0 and could flip the direction.
 */
export function turnAsked(straight: number | undefined, turns: readonly (number | undefined)[]): LivenessChallenge {
  const turned = turns.filter((t): t is number => t !== undefined).at(-1);
  return (turned ?? 0) >= (straight ?? 0) ? 'turn_left' : 'turn_right';
}

/** The turn measures of `frames` from the last back to the first with a face (the rest left undefined). */
async function lastTurns(frames: readonly { bytes: Buffer }[]): Promise<(number | undefined)[]> {
  const out: (number | undefined)[] = frames.map(() => undefined);
  for (let i = frames.length - 1; i >= 0; i--) if ((out[i] = await turnOf(frames[i]!.bytes)) !== undefined) break;
  return out;
}

/** The turn's outcome as the server judged it, for the eval's per-session line. */
function turnOutcome(challenges: readonly ChallengeOutcome[]): Pick<PadOutcome, 'turn'> {
  const t = challenges.find((c) => c.challenge === 'turn_left' || c.challenge === 'turn_right');
  if (!t) return {};
  return {
    turn: {
      measured: t.measured,
      ...(t.planarity !== undefined ? { planarity: t.planarity } : {}),
      ...(t.noise !== undefined ? { noise: t.noise } : {}),
      ...(t.continuous !== undefined ? { continuous: t.continuous } : {}),
    },
  };
}

/**
 * What a session sends and the service reads. A widget (a live session, or the recording of one
 * replayed) sends the straight look's held frame alone (`captureStep`, src/steps/selfie); frames
 * sent through the API by an attacker keep every straight frame made (the server takes up to
 * `frames_per_step`). The selfie is the last straight frame, as the service takes it
 * (server/services/analysis-runner.ts `runFace`): for a widget, a frame its detector saw straight.
 */
export function sentCapture<F extends { readonly challenge: string }>(kind: LiveKind, frames: readonly F[]): { selfie: F; frames: F[] } {
  const selfie = frames.filter((f) => f.challenge === 'neutral').at(-1) ?? frames[0]!;
  const widget = kind === 'bona-fide' || kind === 'replay-injected' || kind === 'screen';
  return { selfie, frames: widget ? frames.filter((f) => f.challenge !== 'neutral' || f === selfie) : [...frames] };
}

/**
 * Every face's bona fide session and each attack, as the `liveness` method sends them (dense
 * frames per step, active liveness, the flash colours drawn for the session and a blink asked
 * for), decided by `analyseSelfie`. The turn asked for is the one
 * the frames make (the attacker's best case: a real challenge draws the direction at random).
 * `onSession` hears each session's outcome as it is decided (a half takes tens of minutes);
 * `kinds` and `faces` limit the presentations and faces run; `takes` sessions are made per face,
 * the first `skipTakes` of them left out.
 */
export async function evalLiveness(
  half: HalfConfig,
  onSession?: (outcome: PadOutcome) => void,
  kinds: readonly LiveKind[] = PAD_KINDS,
  faces: readonly number[] = half.faces,
  takes = 1,
  skipTakes = 0,
): Promise<PadOutcome[]> {
  const out: PadOutcome[] = [];
  // Presentation by presentation, so a run cut short has whole rows for the kinds it finished.
  for (const kind of kinds) {
    for (let take = skipTakes; take < takes; take++)
      for (const face of faces) {
        const s = await denseSession(half, face, kind, take);
        // A replay needs a recording: the victim's widget must have sent one (none is counted either way).
        if (s.device !== null && kind !== 'bona-fide') continue;
        if (s.device !== null) {
          // The recorded person's widget never ended a step: nothing reached the server.
          const outcome: PadOutcome = { kind, face, take, decision: 'rejected', reasons: [`${DEVICE_TIMEOUT}:${s.device}`] };
          out.push(outcome);
          onSession?.(outcome);
          continue;
        }
        // The selfie is the straight look's held frame, as the service takes it; the eval sent
        // another camera frame of the pose (`live-v12`), one no widget judged or sends.
        const sent = sentCapture(kind, s.frames);
        const straight = sent.selfie;
        const direction = turnAsked(await turnOf(straight.bytes), await lastTurns(s.frames.filter((f) => f.challenge === 'turn')));
        const frames = sent.frames.map((f) => ({ bytes: f.bytes, step: f.step, challenge: f.challenge === 'turn' ? direction : f.challenge }));
        const r = await analyseSelfie({ selfie: straight.bytes, frames }, { activeLiveness: true, flashColours: s.colours, requireBlink: true });
        const outcome: PadOutcome = {
          kind,
          face,
          take,
          decision: r.decision,
          reasons: r.reasons,
          ...(r.flash_correlation !== undefined ? { flash: r.flash_correlation } : {}),
          ...turnOutcome(r.challenges),
          ...(r.antispoof !== undefined ? { antispoof: r.antispoof } : {}),
        };
        out.push(outcome);
        onSession?.(outcome);
      }
  }
  return out;
}
