import { VerificationStatus } from '../../domain/catalogue.js';
import type { ServerMethod } from '../method.js';
import { deleteVideoData } from './repo.js';
import { videoRoutes } from './routes.js';
import { MAX_DURATION_MS, MAX_FRAMES, MIN_DURATION_MS, MIN_FRAMES, VIDEO_CHALLENGES } from './rules.js';
import { videoAttempts } from './use-cases.js';

/**
 * Video (spec method 5): a short video selfie recorded while following a random challenge of
 * head turns. The browser samples frames from the recording as it is made and sends them with
 * the recording; the server finds the faces in the frames and decides with the selfie's rules.
 */
export const videoMethod: ServerMethod = {
  key: 'video',
  methodIds: [5],
  permissions: ['camera'],
  biometric: true,
  routes: videoRoutes,
  async view({ ctx, user, verification }, base) {
    const used = await videoAttempts.used(ctx.db, user.id);
    const open = verification.status !== VerificationStatus.rejected || used < VIDEO_CHALLENGES.attempts;
    return {
      ...base,
      key: 'video',
      needs: {
        min_duration_ms: MIN_DURATION_MS,
        max_duration_ms: MAX_DURATION_MS,
        min_frames: MIN_FRAMES,
        max_frames: MAX_FRAMES,
        attempts_left: open ? Math.max(0, VIDEO_CHALLENGES.attempts - used) : 0,
      },
    };
  },
  canRetryRejected: videoAttempts.canRetryRejected,
  reopen: videoAttempts.reopen,
  docs: {
    proves:
      "The user recorded a 3-6 second video selfie with the device's camera while making a random sequence of head turns the server drew for that recording (a single-use challenge valid for 2 minutes; every frame is bound to it and timed within it, and a frame already sent for another challenge is refused). The browser samples 8-12 frames from the recording as it is made and sends them with the recording. The server found exactly one face in the frames (at most one frame in five without one), the same person throughout, the turns asked for in their order and no other, turns that do not move as a flat picture does, anti-spoofing scores above the selfie's threshold and no screen moiré; and, when the user has an identity document, it matched the face to the document portrait with the selfie's bands (0.66 and above a match, 0.52-0.66 review, below 0.52 rejected). It does not prove the person is live beyond these checks: a 3-D rendering of the face turned on cue would pass them. Three attempts.",
    attributes: {
      decision: '`complete`, `review` or `rejected`.',
      reasons:
        'Why not complete: `VIDEO_NO_FACE`, `VIDEO_MULTIPLE_FACES`, `VIDEO_DIFFERENT_PERSON_ACROSS_FRAMES`, `VIDEO_MOVE_NOT_PERFORMED`, `VIDEO_WRONG_MOVE`, `VIDEO_PLANAR_FACE`, `VIDEO_SPOOF_SUSPECTED`, `VIDEO_SCREEN_REPLAY`, `VIDEO_FACE_MISMATCH` (all reject), `VIDEO_FACE_MATCH_UNCERTAIN`, `VIDEO_NO_REFERENCE_FACE` (review).',
      challenge: "The head turns asked for, in order (`turn_left`, `turn_right`; the user's own left and right).",
      moves_seen: 'The head turns found across the frames, in order.',
      moved_as_asked: 'True when the turns seen are exactly the turns asked, in their order.',
      faces_seen: 'Most faces found in one frame (1 for a valid video).',
      frames_analysed: 'Frames sampled from the recording and analysed (8-12).',
      frames_with_face: 'Frames in which a face was found.',
      face_match: '`match`, `uncertain` or `different` against the document portrait; `no_reference` when the user has none.',
      face_match_score: 'Cosine similarity of the straight frame to the document portrait (0-1); null without one.',
      antispoof: "Mean anti-spoofing score of the frames' faces (0-1).",
      recording_ms: 'Length of the recording kept for the record, in ms.',
    },
  },
  deleteUserData: deleteVideoData,
};
