/**
 * The help the face step shows after three failed attempts (issue 20), worded for why the last one
 * failed (the moves not seen in time on the device, or the capture refused by the server, and for
 * what) and for the device the camera is on (a phone held in the hand, a computer's webcam).
 */
import { msg } from '@lit/localize';
import { html, type TemplateResult } from 'lit';
import type { FaceRefusal } from '../../api/contract.js';
import { localize, messageTable } from '../../internal/message-table.js';
import type { CameraDevice } from '../camera-device.js';

/**
 * Why the last attempt failed: `moves` it timed out on the device (`look` for a plain selfie's
 * straight look); a {@link FaceRefusal} the server refused its capture; `unknown` the view does
 * not say (three time-outs before a reload, an older server).
 */
export type HelpCause = 'moves' | 'look' | FaceRefusal | 'unknown';

/** The sentence after the title: what went wrong the last time. */
export const HELP_CAUSES = messageTable<Exclude<HelpCause, 'unknown'>>('selfie.help.cause', {
  moves: 'The last time, the camera did not see the moves before the time ran out.',
  look: 'The last time, the camera did not see you look straight at it before the time ran out.',
  face_not_seen: 'The last time, the pictures were refused: your face was not clearly in view in all of them.',
  not_live: 'The last time, the pictures were refused: the check could not confirm a live person in front of the camera.',
  face_mismatch: 'The last time, the pictures were refused: the face did not match the photo on your document.',
});

/** The tips (ids `selfie.help.<key>`, as before for the ones kept). */
export const HELP_TIPS = messageTable('selfie.help', {
  distance: 'Hold the phone at eye level, about an arm’s length away.',
  'distance-computer': 'Sit facing your computer’s camera, your face level with it, about an arm’s length away.',
  slow: 'Turn your head slowly and keep your face inside the oval.',
  look: 'Look straight at the camera and keep your face inside the oval.',
  'whole-face': 'Keep your whole face inside the oval until the end, also while the screen changes colour and while you blink.',
  'only-you': 'Only you should be in view; keep hair, hands and masks away from your face.',
  yourself: 'Be in front of the camera yourself: pictures of a photo or of a screen are not accepted.',
  brightness: 'Turn the screen brightness up: the colours it shows must light your face.',
  'brightness-computer': 'Turn the screen brightness up and sit close enough for its colours to light your face.',
  uncovered: 'Take off glasses, a hat or a mask, and look as in the photo on your document.',
  light: 'Face a window or a lamp; avoid a bright light behind you.',
});
type HelpTip = keyof typeof HELP_TIPS.english;

/** The tips for a cause on a device: where to be first, then what to change, then the light. */
export function helpTips(cause: HelpCause, device: CameraDevice, active: boolean): HelpTip[] {
  const phone = device === 'phone';
  const place: HelpTip = phone ? 'distance' : 'distance-computer';
  const moves: HelpTip = active ? 'slow' : 'look';
  // The flash's colours must reach the face: a phone is held near, a computer's screen is further.
  const flash: HelpTip[] = active ? [phone ? 'brightness' : 'brightness-computer'] : [];
  const fix: Record<HelpCause, HelpTip[]> = {
    moves: ['slow'],
    look: ['look'],
    unknown: [moves],
    face_not_seen: [active ? 'whole-face' : 'look', 'only-you'],
    not_live: ['yourself', ...flash],
    face_mismatch: ['uncovered'],
  };
  return [place, ...fix[cause], 'light'];
}

/** The help: what failed, then the tips. */
export function selfieHelp(cause: HelpCause, device: CameraDevice, active: boolean): TemplateResult {
  return html`<p class="help-title">
      <strong>${msg('This did not work three times.', { id: 'selfie.help.title' })}</strong>
      ${cause === 'unknown' ? '' : localize(HELP_CAUSES, cause)}
    </p>
    <ul class="help">
      ${helpTips(cause, device, active).map((tip) => html`<li>${localize(HELP_TIPS, tip)}</li>`)}
    </ul>`;
}
