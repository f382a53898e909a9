/**
 * Why the server refused a face capture, as the user can act on it: `face_not_seen` (no face, or
 * another face, in the frames), `not_live` (the moves, the screen's colours or the blink were not
 * seen on a live face), `face_mismatch` (not the face of the document). Without zod: the widget
 * imports it (its bundle carries no schema code).
 */
export const FACE_REFUSALS = ['face_not_seen', 'not_live', 'face_mismatch'] as const;
export type FaceRefusalKind = (typeof FACE_REFUSALS)[number];

/** The server's refusal reasons (`SelfieReason` codes, server/analysis/stages/selfie.ts) of each kind. */
const REFUSAL_REASONS: Record<FaceRefusalKind, readonly string[]> = {
  face_not_seen: ['NO_FACE', 'MULTIPLE_FACES', 'DIFFERENT_PERSON_ACROSS_FRAMES'],
  not_live: [
    'CHALLENGE_NOT_PERFORMED',
    'SPOOF_SUSPECTED',
    'PLANAR_FACE',
    'MOTION_NOT_CONTINUOUS',
    'LIVENESS_FRAMES_MISSING',
    'SCREEN_REPLAY',
    'FLASH_NOT_FOLLOWED',
    'BLINK_NOT_SEEN',
  ],
  face_mismatch: ['FACE_MISMATCH'],
};

/**
 * The kind of a refusal's reasons, tried in this order: a face the frames lost also fails the
 * checks that need it (a flash or a blink on no face), so it is the cause to fix first.
 */
export function faceRefusalOf(reasons: readonly string[]): FaceRefusalKind | null {
  return FACE_REFUSALS.find((kind) => REFUSAL_REASONS[kind].some((code) => reasons.includes(code))) ?? null;
}

/** The kind of a stored refusal: its reasons comma-separated, as the analysis runner records them. */
export function faceRefusalOfRemarks(remarks: string | null): FaceRefusalKind | null {
  return remarks === null ? null : faceRefusalOf(remarks.split(',').map((r) => r.trim()));
}
