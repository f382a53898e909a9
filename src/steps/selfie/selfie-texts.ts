/** The words of the selfie and liveness step: instructions for each challenge step, advice for face problems. */
import { msg } from '@lit/localize';
import type { ChallengeStep } from '../../api/contract.js';
import type { FaceHint } from '../../capture/liveness.js';
import { localize, messageTable } from '../../internal/message-table.js';

/** The instruction for each challenge step. */
export const CHALLENGE_TEXTS = messageTable<ChallengeStep>('selfie.step', {
  look_straight: 'Look straight at the camera.',
  turn_left: 'Slowly turn your head to your left.',
  turn_right: 'Slowly turn your head to your right.',
  come_closer: 'Move your face closer to the camera.',
  flash: 'Keep still and look at the screen: it will change colour for a few seconds.',
  blink: 'Blink once, slowly.',
});

/** The advice for each face problem. */
export const FACE_HINT_TEXTS = messageTable<FaceHint>('selfie.hint', {
  TOO_DARK: 'Too dark. Face a window or a light.',
  NO_FACE: 'We cannot see your face. Put it inside the oval.',
  MULTIPLE_FACES: 'Only one person should be in view.',
  TOO_FAR: 'Come a little closer.',
  TOO_CLOSE: 'Move back a little.',
  NOT_CENTERED: 'Centre your face in the oval.',
});

/** The instruction for a challenge step. */
export const challengeText = (step: ChallengeStep): string => localize(CHALLENGE_TEXTS, step);

/** The advice for a face problem. */
export const faceHintText = (hint: FaceHint): string => localize(FACE_HINT_TEXTS, hint);

/** The server's upload budget is spent (429): say so in the user's words, not the HTTP status. */
export function tooManyFramesText(): string {
  return msg('Too many pictures were sent in a short time. Please wait a few minutes, then try again.', { id: 'selfie.rate-limited' });
}
