/**
 * What a flow's biometric steps capture, so that the consent screen names exactly that: a
 * template with a payment card and a voice step is not asked about "document and face". Small and
 * without the consent element, because the flow's own bundle titles the screen.
 */
import { msg, str } from '@lit/localize';
import type { MethodKey } from '../../api/routes.js';
import { localize, messageTable } from '../../internal/message-table.js';
import { getLocale } from '../../localization.js';

/** One kind of capture a consent covers, in the order the screen lists them. */
export const CAPTURES = ['document', 'face', 'card', 'voice', 'call'] as const;
export type Capture = (typeof CAPTURES)[number];

const BY_METHOD: Partial<Record<MethodKey, Capture>> = {
  document_id: 'document',
  selfie: 'face',
  liveness: 'face',
  video: 'face',
  secure_card: 'card',
  voice: 'voice',
  live_video: 'call',
};

/** The captures of these methods (those that need consent), each once, in {@link CAPTURES} order. */
export function capturesOf(keys: readonly (MethodKey | 'other')[]): Capture[] {
  const found = new Set(keys.map((k) => (k === 'other' ? undefined : BY_METHOD[k])));
  return CAPTURES.filter((c) => found.has(c));
}

const usesCamera = (c: Capture) => c !== 'voice';
const usesMicrophone = (c: Capture) => c === 'voice' || c === 'call';

/** The consent screen's title: the device(s) these captures use. */
export function consentTitle(captures: readonly Capture[]): string {
  const camera = captures.length === 0 || captures.some(usesCamera);
  const microphone = captures.some(usesMicrophone);
  if (camera && microphone) return msg('Before we use your camera and microphone', { id: 'consent.title-both' });
  if (microphone) return msg('Before we use your microphone', { id: 'consent.title-microphone' });
  return msg('Before we use your camera', { id: 'consent.title' });
}

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
