/** The words of the selfie and liveness step: instructions for each challenge step, advice for face problems. */
import { msg } from '@lit/localize';
import type { ChallengeStep } from '../../api/contract.js';
import type { FaceHint } from '../../capture/liveness.js';

/** The instruction for a challenge step. */
export function challengeText(step: ChallengeStep): string {
  switch (step) {
    case 'look_straight':
      return msg('Look straight at the camera.', { id: 'selfie.step.straight' });
    case 'turn_left':
      return msg('Slowly turn your head to your left.', { id: 'selfie.step.left' });
    case 'turn_right':
      return msg('Slowly turn your head to your right.', { id: 'selfie.step.right' });
    case 'come_closer':
      return msg('Move your face closer to the camera.', { id: 'selfie.step.closer' });
    case 'flash':
      return msg('Keep still and look at the screen: it will change colour for a few seconds.', { id: 'selfie.step.flash' });
    case 'blink':
      return msg('Blink once, slowly.', { id: 'selfie.step.blink' });
  }
}

/** The advice for a face problem. */
export function faceHintText(hint: FaceHint): string {
  switch (hint) {
    case 'TOO_DARK':
      return msg('Too dark. Face a window or a light.', { id: 'selfie.hint.dark' });
    case 'NO_FACE':
      return msg('We cannot see your face. Put it inside the oval.', { id: 'selfie.hint.none' });
    case 'MULTIPLE_FACES':
      return msg('Only one person should be in view.', { id: 'selfie.hint.many' });
    case 'TOO_FAR':
      return msg('Come a little closer.', { id: 'selfie.hint.far' });
    case 'TOO_CLOSE':
      return msg('Move back a little.', { id: 'selfie.hint.close' });
    case 'NOT_CENTERED':
      return msg('Centre your face in the oval.', { id: 'selfie.hint.center' });
  }
}

/** The server's upload budget is spent (429): say so in the user's words, not the HTTP status. */
export function tooManyFramesText(): string {
  return msg('Too many pictures were sent in a short time. Please wait a few minutes, then try again.', { id: 'selfie.rate-limited' });
}
