/** The consent element's texts for what a flow captures: the default consent text and the box's label (loaded with the element, not the flow). */
import { msg, str } from '@lit/localize';
import { localize, messageTable } from '../../internal/message-table.js';
import { getLocale } from '../../localization.js';
import type { Capture } from './consent-captures.js';

/** The text written for the usual pair: an identity document and a face (and its translations). */
const isDocumentAndFace = (captures: readonly Capture[]) => captures.length === 2 && captures[0] === 'document' && captures[1] === 'face';

function list(items: string[]): string {
  return new Intl.ListFormat(getLocale(), { type: 'conjunction' }).format(items);
}

/** What each capture takes, as the default text lists it. */
export const CAPTURED = messageTable<Capture>('consent.capture', {
  document: 'pictures of your identity document',
  face: 'pictures or a video of your face',
  card: 'a picture of your payment card, its number blacked out on your device',
  voice: 'a recording of your voice',
  call: 'a live video call with an agent',
});

/** What each capture takes, as the box the user ticks names it. */
export const AGREED = messageTable<Capture>('consent.agree', {
  document: 'my identity document',
  face: 'my face',
  card: 'my payment card',
  voice: 'my voice',
  call: 'a video call with an agent',
});

/** The default consent text for these captures, in the user's language (an account may set its own). */
export function defaultConsentText(captures: readonly Capture[]): string {
  if (captures.length === 0 || isDocumentAndFace(captures))
    return msg(
      'To verify your identity, the next steps take pictures of your identity document and of your face with your camera. From them we read the data on the document and compare your face with its photo (biometric data). They are used only to verify you, kept no longer than needed, and never sold. You can withdraw your consent by leaving now: nothing is captured without it.',
      { id: 'consent.default-text' },
    );
  return msg(
    str`To verify your identity, the next steps capture ${list(captures.map((c) => localize(CAPTURED, c)))}. What is captured is used only to verify you (a face or a voice is biometric data), kept no longer than needed, and never sold. You can withdraw your consent by leaving now: nothing is captured without it.`,
    { id: 'consent.default-text-list' },
  );
}

/** The label of the box the user ticks, naming these captures. */
export function agreeLabel(captures: readonly Capture[]): string {
  if (captures.length === 0 || isDocumentAndFace(captures))
    return msg('I agree that my document and face are captured and checked to verify my identity.', { id: 'consent.agree' });
  return msg(str`I agree to the capture and checking of ${list(captures.map((c) => localize(AGREED, c)))} to verify my identity.`, {
    id: 'consent.agree-list',
  });
}
